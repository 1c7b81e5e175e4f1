import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The SQL of collector passes (issue 48, `collector_passes`, migration 066).
package enum CollectorPassQueries {
    /// What a new pass needs, the order's row locked (so passes counted here cannot be added
    /// to by a racing request, and a hand-over waits): the customer's own order only.
    package struct OrderFacts: Sendable {
        package var store: StoreID
        package var tokenNumber: Int32
        package var status: OrderStatus
        /// The receipt's expiry: a pass expires with it.
        package var expiry: Int64
        package var live: Int
    }

    package static func lockedOrder(_ id: OrderID, customer: UserID, on connection: PostgresConnection, logger: Logger) async throws
        -> OrderFacts?
    {
        let rows = try await connection.run(
            """
            SELECT o.store_id, s.token_number, o.status, extract(epoch FROM t.expires_at)::int8 AS expiry
            FROM orders o JOIN stores s ON s.id = o.store_id JOIN pickup_tokens t ON t.order_id = o.id
            WHERE o.id = \(id.rawValue) AND o.customer_id = \(customer.rawValue)
            FOR UPDATE OF o
            """, logger: logger)
        guard let r = rows.collect().first?.makeRandomAccess() else { return nil }
        // Counted by a statement of its own, after the lock is held: a subquery of the locking
        // statement would count with the snapshot it took before waiting, so racing requests
        // would each see the passes as they were before any of them (CollectorPassServiceTests
        // races seven for five places).
        let counted = try await connection.run(
            "SELECT count(*)::int8 FROM collector_passes WHERE order_id = \(id.rawValue) AND revoked_at IS NULL", logger: logger)
        var live = 0
        for try await count in counted.decode(Int64.self) { live = Int(count) }
        return OrderFacts(
            store: StoreID(try r["store_id"].decode(UUID.self)), tokenNumber: try r["token_number"].decode(Int32.self),
            status: try r["status"].stored(OrderStatus.self), expiry: try r["expiry"].decode(Int64.self), live: live)
    }

    package static func insert(
        _ id: UUID, order: OrderID, store: StoreID, name: String, token: PickupToken, by customer: UserID,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> CollectorPass {
        let rows = try await connection.run(
            """
            INSERT INTO collector_passes AS c (id, store_id, order_id, name, key_id, text, created_by, expires_at)
            VALUES (\(id), \(store.rawValue), \(order.rawValue), \(name), \(Int32(token.keyID.rawValue)), \(token.text),
                    \(customer.rawValue), to_timestamp(\(Int64(token.claims.expiry))))
            RETURNING \(unescaped: columns)
            """, logger: logger)
        for try await row in rows { return try pass(row) }
        throw OrderError.unexpectedlyMissing("the inserted collector_passes row")
    }

    /// The order's passes, oldest first, if `reader` may see the order: its customer, or
    /// staff of its store (`scope`); nil when neither.
    package static func list(
        _ order: OrderID, customer: UserID?, scope: StoreScope?, on client: PostgresClient, logger: Logger
    ) async throws -> [CollectorPass]? {
        let rows = try await client.read(
            """
            SELECT o.id AS order_found, c.*
            FROM orders o LEFT JOIN LATERAL (
                SELECT \(unescaped: columns) FROM collector_passes c WHERE c.order_id = o.id ORDER BY c.created_at, c.id LIMIT 100
            ) c ON true
            WHERE o.id = \(order.rawValue) AND (o.customer_id = \(customer?.rawValue) OR o.store_id = \(scope?.store?.rawValue))
            """, logger: logger)
        var found = false
        var passes: [CollectorPass] = []
        for try await row in rows {
            found = true
            if try row.makeRandomAccess()["id"].decode(UUID?.self) != nil { passes.append(try pass(row)) }
        }
        return found ? passes : nil
    }

    /// Revokes the customer's pass, the order's row locked first as a hand-over locks it; the
    /// pass as it then stands, or nil when there is no such pass of theirs.
    package static func revoke(
        _ pass: UUID, order: OrderID, customer: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> CollectorPass? {
        _ = try await connection.run(
            "SELECT 1 FROM orders WHERE id = \(order.rawValue) AND customer_id = \(customer.rawValue) FOR UPDATE", logger: logger
        ).collect()
        let rows = try await connection.run(
            """
            UPDATE collector_passes c SET revoked_at = coalesce(c.revoked_at, now())
            FROM orders o
            WHERE c.id = \(pass) AND c.order_id = \(order.rawValue) AND o.id = c.order_id AND o.customer_id = \(customer.rawValue)
              AND c.used_at IS NULL
            RETURNING \(unescaped: columns)
            """, logger: logger)
        for try await row in rows { return try self.pass(row) }
        let used = try await connection.run(
            """
            SELECT \(unescaped: columns) FROM collector_passes c JOIN orders o ON o.id = c.order_id
            WHERE c.id = \(pass) AND c.order_id = \(order.rawValue) AND o.customer_id = \(customer.rawValue)
            """, logger: logger)
        for try await row in used { return try self.pass(row) }
        return nil
    }

    /// The pass whose token is `text`, for the desk: nil when none is.
    package static func scanned(_ text: String, on client: PostgresClient, logger: Logger) async throws -> CollectorPass? {
        let rows = try await client.read(
            "SELECT \(unescaped: columns) FROM collector_passes c WHERE c.text = \(text)", logger: logger)
        for try await row in rows { return try pass(row) }
        return nil
    }

    private static let columns = "c.id, c.order_id, c.name, c.text, c.created_at, c.expires_at, c.revoked_at, c.used_at"

    private static func pass(_ row: PostgresRow) throws -> CollectorPass {
        let r = row.makeRandomAccess()
        return CollectorPass(
            id: try r["id"].decode(UUID.self), orderID: OrderID(try r["order_id"].decode(UUID.self)), name: try r["name"].decode(String.self),
            text: try r["text"].decode(String.self), createdAt: try r["created_at"].decode(Date.self),
            expiresAt: try r["expires_at"].decode(Date.self), revokedAt: try r["revoked_at"].decode(Date?.self),
            usedAt: try r["used_at"].decode(Date?.self))
    }
}
