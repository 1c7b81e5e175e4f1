import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The SQL of moving an order to another pickup slot (`PickupSlots.move`): the order's row,
/// locked, and its new slot and pickup token.
package enum OrderSlotQueries {
    /// `customer`'s own order `id`, its row locked `FOR UPDATE` so two moves of one order run one
    /// after the other; nil when there is no such order of theirs (another's is not found).
    package static func lockOwnOrder(
        _ id: OrderID, customer: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> MovingOrder? {
        let rows = try await connection.run(
            """
            SELECT o.store_id, o.status, o.pickup_slot_start, s.token_number,
                   (SELECT order_pick_work(o.store_id, count(*), sum(l.quantity))
                    FROM order_lines l WHERE l.order_id = o.id AND l.quantity > 0 AND l.removed_at IS NULL) AS work
            FROM orders o JOIN stores s ON s.id = o.store_id
            WHERE o.id = \(id.rawValue) AND o.customer_id = \(customer.rawValue)
            FOR UPDATE OF o
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return MovingOrder(
                store: StoreID(try r["store_id"].decode(UUID.self)), status: try r["status"].stored(OrderStatus.self),
                slotStart: try r["pickup_slot_start"].decode(Date?.self), tokenNumber: UInt32(try r["token_number"].decode(Int32.self)),
                work: Int(try r["work"].decode(Int32.self)))
        }
        return nil
    }

    /// Records the order's new slot, the pick work it booked there, and the pickup token issued
    /// for it (the old one stops working).
    package static func move(
        _ id: OrderID, to slot: PickupSlot, work: Int, token: PickupToken, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            WITH o AS (
                UPDATE orders SET pickup_slot_start = \(slot.start), pickup_slot_end = \(slot.end),
                                  pick_work_seconds = \(Int32(clamping: work))
                WHERE id = \(id.rawValue)
            )
            UPDATE pickup_tokens SET key_id = \(Int32(token.keyID.rawValue)), text = \(token.text), issued_at = now(),
                                     expires_at = to_timestamp(\(Int64(token.claims.expiry)))
            WHERE order_id = \(id.rawValue)
            """, logger: logger)
    }
}
