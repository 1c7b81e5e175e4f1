import Foundation
import Logging
import PostgresNIO

/// The SQL of the places booked in pickup slots (`pickup_slot_bookings`: one counter row per
/// store and slot start).
///
/// Lock order: a transaction that changes stock and a slot locks the stock rows first (in
/// product-id order), then the order row, then slot rows in slot-start order. Checkout,
/// cancellation and moving an order all follow it, so none of them deadlock with another.
package enum SlotBookingQueries {
    /// Takes one place in the slot starting at `start`, unless `capacity` places are taken
    /// already (`sql/routines/take_slot_place.sql`, which checkout's statement uses too): racing
    /// bookings on any number of instances never overbook. False when full.
    package static func take(store: StoreID, start: Date, capacity: Int, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.run(
            "SELECT take_slot_place(\(store.rawValue), \(start), \(Int32(clamping: capacity)))", logger: logger)
        for try await taken in rows.decode(Bool.self) { return taken }
        return false
    }

    /// Gives back the place the order holds, if it holds one (cancellation, moving to another slot).
    package static func free(orderOf order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE pickup_slot_bookings b SET booked = b.booked - 1
            FROM orders o
            WHERE o.id = \(order.rawValue) AND b.store_id = o.store_id AND b.slot_start = o.pickup_slot_start AND b.booked > 0
            """, logger: logger)
    }

    /// Locks the counter rows of the two slots that exist, in slot-start order (see the lock order above).
    package static func lock(store: StoreID, starts a: Date, _ b: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM pickup_slot_bookings
            WHERE store_id = \(store.rawValue) AND slot_start IN (\(a), \(b))
            ORDER BY slot_start
            FOR UPDATE
            """, logger: logger)
    }

    /// Places taken per slot start in `[from, to)`.
    package static func booked(store: StoreID, from: Date, to: Date, on client: some SQLRunner, logger: Logger) async throws -> [Date: Int] {
        let rows = try await client.run(
            """
            SELECT slot_start, booked FROM pickup_slot_bookings
            WHERE store_id = \(store.rawValue) AND slot_start >= \(from) AND slot_start < \(to)
            """, logger: logger)
        var booked: [Date: Int] = [:]
        for try await (start, count) in rows.decode((Date, Int32).self) { booked[start] = Int(count) }
        return booked
    }
}
