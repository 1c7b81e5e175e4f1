import Foundation
import Logging
import PostgresNIO

/// The SQL of the expiry sweep (`OrderExpiry`). The sweep is the system's, across every store.
///
/// Neither statement states a rule of its own. Which orders the sweep may cancel asks the
/// transition rule's SQL side, `order_transition_allowed(status, 'cancelled')`
/// (`sql/routines/order_transition_allowed.sql`, checked against `OrderStatus.allowedTargets` by
/// `TransitionRuleAgreementTests`); when an order is uncollected asks its token's `expires_at`,
/// which every issuer set from the one deadline rule (`collection_deadline`, see
/// `StoreCalendar.collectionDeadline(for:)`).
package enum OrderExpiryQueries {
    /// Open orders whose unused token expired by `now`, oldest expiry first; read without locks.
    package static func candidates(expiredBy now: Date, limit: Int, on client: PostgresClient, logger: Logger) async throws
        -> [OrderExpiry.Candidate]
    {
        let rows = try await client.run(
            """
            SELECT o.id, o.store_id FROM orders o JOIN pickup_tokens t ON t.order_id = o.id
            WHERE order_transition_allowed(o.status, 'cancelled') AND t.used_at IS NULL AND t.expires_at <= \(now)
            ORDER BY t.expires_at, o.id
            LIMIT \(limit)
            """, logger: logger)
        var found: [OrderExpiry.Candidate] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            found.append(
                OrderExpiry.Candidate(id: OrderID(try r["id"].decode(UUID.self)), store: StoreID(try r["store_id"].decode(UUID.self))))
        }
        return found
    }

    /// Claims the order with its row locked, only if it is still open and still expired at
    /// `now`; its status, or nil when another transaction holds it or it no longer qualifies.
    package static func claim(_ candidate: OrderExpiry.Candidate, now: Date, on connection: PostgresConnection, logger: Logger) async throws
        -> OrderStatus?
    {
        let claimed = try await connection.run(
            """
            SELECT o.status FROM orders o
            WHERE o.id = \(candidate.id.rawValue) AND o.store_id = \(candidate.store.rawValue)
              AND order_transition_allowed(o.status, 'cancelled')
              AND EXISTS (SELECT 1 FROM pickup_tokens t WHERE t.order_id = o.id AND t.used_at IS NULL AND t.expires_at <= \(now))
            FOR UPDATE OF o SKIP LOCKED
            """, logger: logger)
        var status: OrderStatus?
        for try await raw in claimed.decode(String.self) { status = try OrderStatus.stored(raw, column: "status") as OrderStatus }
        return status
    }
}
