import Foundation
import Logging
import PostgresNIO

/// The SQL of reading the outbox.
package enum EventQueries {
    /// Which events a stream follows: a whole store's, or one order's.
    package enum Scope: Sendable {
        case store(StoreID)
        case order(OrderID, store: StoreID)

        package var store: StoreID {
            switch self {
            case .store(let store), .order(_, let store): store
            }
        }
    }

    /// The events of `scope` after `sequence`, oldest first, at most `limit`.
    package static func events(_ scope: Scope, after sequence: Int64, limit: Int, on client: PostgresClient, logger: Logger) async throws
        -> [OutboxEvent]
    {
        let rows: SQLRows
        switch scope {
        case .store(let store):
            rows = try await client.run(
                """
                SELECT e.sequence, e.type, event_json(e) AS json FROM events e
                WHERE e.store_id = \(store.rawValue) AND e.sequence > \(sequence)
                ORDER BY e.sequence LIMIT \(limit)
                """, logger: logger)
        case .order(let order, let store):
            rows = try await client.run(
                """
                SELECT e.sequence, e.type, event_json(e) AS json FROM events e
                WHERE e.order_id = \(order.rawValue) AND e.store_id = \(store.rawValue) AND e.sequence > \(sequence)
                ORDER BY e.sequence LIMIT \(limit)
                """, logger: logger)
        }
        var events: [OutboxEvent] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            events.append(
                OutboxEvent(
                    sequence: try r["sequence"].decode(Int64.self), type: try r["type"].decode(String.self), json: try r["json"].decode(String.self)))
        }
        return events
    }

    /// The last sequence number `store` has given out (0 before its first event), once every event
    /// it committed before this call is numbered: events are numbered after their commit, so the
    /// counter alone could be behind an order placed a moment ago, and a stream opened "now" would
    /// then send that order as new. Waiting for the store's numbering lock (held only while a
    /// round numbers) and numbering here makes "now" mean everything committed so far.
    package static func lastSequence(of store: StoreID, on client: PostgresClient, logger: Logger) async throws -> Int64 {
        let rows = try await client.run(
            """
            WITH locked AS (SELECT pg_advisory_xact_lock(1701, hashtext(\(store.rawValue)::text)))
            SELECT coalesce(number_events(\(store.rawValue)), 0) FROM locked
            """, logger: logger)
        for try await last in rows.decode(Int64.self) { return last }
        return 0
    }

    /// Numbers the committed, unnumbered events of `stores` (and, with `andLeftovers`, of every
    /// store that has any) with `number_events` (`sql/routines/number_events.sql`), in one statement.
    package static func number(stores: [StoreID], andLeftovers: Bool, on client: PostgresClient, logger: Logger) async throws {
        guard !stores.isEmpty || andLeftovers else { return }
        try await client.run(
            """
            SELECT number_events(s.id) FROM (
                SELECT unnest(\(stores.map(\.rawValue))::uuid[]) AS id
                UNION
                SELECT DISTINCT e.store_id FROM events e WHERE \(andLeftovers) AND e.sequence IS NULL
            ) s
            """, logger: logger)
    }
}
