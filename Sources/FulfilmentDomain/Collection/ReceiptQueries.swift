import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The SQL of receipts issued again at the desk (`receipt_reissues`, and the order's token).
package enum ReceiptQueries {
    /// What a fresh token needs, with the order and its token locked; nil when the order is not
    /// in `scope` (staff of its store) or has no token.
    package static func lockedForReissue(_ id: OrderID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws
        -> Receipts.TokenFacts?
    {
        let rows = try await connection.run(
            """
            SELECT o.store_id, s.token_number,
                   extract(epoch FROM collection_deadline(o.pickup_slot_end, c.grace_minutes, s.collection_window))::int8
                       AS fresh_expiry,
                   extract(epoch FROM t.expires_at)::int8 AS old_expiry
            FROM orders o JOIN stores s ON s.id = o.store_id JOIN pickup_tokens t ON t.order_id = o.id
            LEFT JOIN store_calendars c ON c.store_id = o.store_id
            WHERE o.id = \(id.rawValue) AND o.store_id = \(scope)
            FOR UPDATE OF o, t
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return Receipts.TokenFacts(
                store: StoreID(try r["store_id"].decode(UUID.self)), tokenNumber: try r["token_number"].decode(Int32.self),
                freshExpiry: try r["fresh_expiry"].decode(Int64.self), oldExpiry: try r["old_expiry"].decode(Int64.self))
        }
        return nil
    }

    /// Replaces the order's token with `token` and records who did it and why; returns when.
    package static func reissue(
        _ id: OrderID, store: StoreID, token: PickupToken, by staff: UserID, reason: String, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Date {
        let stamped = try await connection.run(
            """
            WITH t AS (
                UPDATE pickup_tokens SET key_id = \(Int32(token.keyID.rawValue)), text = \(token.text), issued_at = now(),
                                         expires_at = to_timestamp(\(Int64(token.claims.expiry)))
                WHERE order_id = \(id.rawValue)
            )
            INSERT INTO receipt_reissues (store_id, order_id, reissued_by, reason)
            VALUES (\(store.rawValue), \(id.rawValue), \(staff.rawValue), \(reason))
            RETURNING at
            """, logger: logger)
        for try await at in stamped.decode(Date.self) { return at }
        throw OrderError.unexpectedlyMissing("the inserted receipt_reissues row")
    }
}
