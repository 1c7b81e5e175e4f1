import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// A receipt issued again at the desk, for a customer who lost theirs: the one way staff ever
/// hold a pickup token. The order's token is replaced (the old QR stops working, answering
/// `invalid_token` with reason `superseded`), and who did it, when and why is kept in
/// `receipt_reissues`, in the same transaction.
struct Receipts: Sendable {
    let database: Database
    let signer: PickupTokenSigner

    struct Reissue: Sendable {
        var order: Order
        var token: PickupToken
        var reissuedAt: Date
    }

    func reissue(order id: OrderID, reason: String, by staff: Identity, logger: Logger) async throws -> Reissue {
        try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run(
                """
                SELECT o.store_id, s.token_number,
                       extract(epoch FROM coalesce(o.pickup_slot_end + make_interval(mins => c.grace_minutes),
                                                   now() + s.collection_window))::int8,
                       extract(epoch FROM t.expires_at)::int8
                FROM orders o JOIN stores s ON s.id = o.store_id JOIN pickup_tokens t ON t.order_id = o.id
                LEFT JOIN store_calendars c ON c.store_id = o.store_id
                WHERE o.id = \(id.rawValue)
                FOR UPDATE OF o, t
                """, logger: logger)
            var found: (UUID, Int32, Int64, Int64)?
            for try await row in rows.decode((UUID, Int32, Int64, Int64).self) { found = row }
            guard let (storeUUID, tokenNumber, freshExpiry, oldExpiry) = found, staff.worksAt(StoreID(storeUUID)) else {
                throw OrderError.orderNotFound
            }
            let store = StoreID(storeUUID)
            guard var order = try await OrderQueries.order(id: id, on: connection, logger: logger) else { throw OrderError.orderNotFound }
            switch order.status {
            case .cancelled: throw OrderError.orderCancelled
            case .completed:
                throw OrderError.alreadyCollected(at: order.collectedAt ?? order.createdAt, by: order.history.last?.actorName ?? "staff")
            case .pending, .packaged, .delivering: break
            }
            // A fresh collection window from now (for an order with a slot, its end plus the grace
            // period, as at checkout); never the very claims of the old token (Ed25519
            // signatures are deterministic, so equal claims would give the same text back).
            let expiry = freshExpiry == oldExpiry ? freshExpiry + 1 : freshExpiry
            let token = try signer.sign(PickupToken.Claims(
                orderID: id.rawValue, storeNumber: UInt32(tokenNumber), expiry: UInt32(clamping: expiry)))
            let stamped = try await connection.run(
                """
                WITH t AS (
                    UPDATE pickup_tokens SET key_id = \(Int32(token.keyID.rawValue)), text = \(token.text), issued_at = now(),
                                             expires_at = to_timestamp(\(Int64(token.claims.expiry)))
                    WHERE order_id = \(id.rawValue)
                )
                INSERT INTO receipt_reissues (store_id, order_id, reissued_by, reason)
                VALUES (\(store.rawValue), \(id.rawValue), \(staff.userID.rawValue), \(reason))
                RETURNING at
                """, logger: logger)
            var at = Date()
            for try await row in stamped.decode(Date.self) { at = row }
            order.pickup = PickupRecord(text: token.text, expiresAt: token.claims.expiresAt, usedAt: nil)
            return Reissue(order: order, token: token, reissuedAt: at)
        }
    }
}
