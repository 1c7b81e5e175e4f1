import Foundation
import Logging
import PostgresNIO

/// The SQL of webhook endpoints. Every query that reads or changes one takes the caller's
/// `StoreScope` and puts it in the `WHERE` clause (`\(scope, column: "w.store_id")`, true for the
/// chain's admin): another store's endpoint is not found.
package enum WebhookQueries {
    /// The columns ``decode(_:)`` reads, over `webhook_endpoints w`.
    private static let columns = """
        w.id, w.store_id, w.url, w.description, w.event_types, w.enabled, w.disabled_reason, w.failing_since,
        w.created_at, w.updated_at, (extract(epoch FROM w.created_at) * 1000000)::int8 AS created_micros
        """

    /// A new endpoint whose secret is stored sealed (`WebhookSecrets`) under data key `keyID`,
    /// bound to `id`: the plain secret never reaches the database.
    package static func insert(
        _ id: WebhookEndpointID, store: StoreID?, url: String, description: String, eventTypes: [String], sealedSecret: Data,
        keyID: Int, by user: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> WebhookEndpoint {
        // A store that does not exist is the foreign key's refusal, read with the rows.
        let endpoint: WebhookEndpoint? = try await WebhookError.mappingDatabaseErrors {
            let rows = try await connection.run(
                """
                INSERT INTO webhook_endpoints AS w (id, store_id, url, description, event_types, secret_key_id, secret_sealed, created_by)
                VALUES (\(id.rawValue), \(store?.rawValue), \(url), \(description), \(eventTypes), \(Int32(keyID)), \(sealedSecret),
                        \(user.rawValue))
                RETURNING \(unescaped: columns)
                """, logger: logger)
            return try await decode(rows).first?.0
        }
        guard let endpoint else { throw WebhookError.notRecorded }
        return endpoint
    }

    package static func find(
        _ id: WebhookEndpointID, scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> WebhookEndpoint? {
        let rows = try await connection.run(
            """
            SELECT \(unescaped: columns) FROM webhook_endpoints w
            WHERE w.id = \(id.rawValue) AND \(scope, column: "w.store_id")
            """, logger: logger)
        return try await decode(rows).first?.0
    }

    /// The endpoints the caller may see, oldest first.
    package static func list(
        scope: StoreScope, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<WebhookEndpoint> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns) FROM webhook_endpoints w
            WHERE \(scope, column: "w.store_id")
              AND (\(after == nil) OR ((extract(epoch FROM w.created_at) * 1000000)::int8, w.id)
                                      > (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY w.created_at, w.id
            LIMIT \(limit + 1)
            """, logger: logger)
        let items = try await decode(rows)
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// Changes the given fields (nil: unchanged). Enabling clears why the dispatcher disabled it
    /// and since when it was failing, so it starts afresh; disabling by hand leaves no reason.
    package static func update(
        _ id: WebhookEndpointID, scope: StoreScope, url: String?, description: String?, eventTypes: [String]?, enabled: Bool?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> WebhookEndpoint? {
        let rows = try await connection.run(
            """
            UPDATE webhook_endpoints w SET
                url = coalesce(\(url), w.url),
                description = coalesce(\(description), w.description),
                event_types = coalesce(\(eventTypes)::text[], w.event_types),
                enabled = coalesce(\(enabled), w.enabled),
                disabled_reason = CASE WHEN \(enabled)::boolean IS NULL THEN w.disabled_reason END,
                failing_since = CASE WHEN \(enabled) IS TRUE AND NOT w.enabled THEN NULL ELSE w.failing_since END,
                updated_at = now()
            WHERE w.id = \(id.rawValue) AND \(scope, column: "w.store_id")
            RETURNING \(unescaped: columns)
            """, logger: logger)
        return try await decode(rows).first?.0
    }

    /// The endpoint's address and secret as stored (sealed, or plain from before migration 023),
    /// for a test message; nil when the caller has no such endpoint.
    package static func secret(
        of id: WebhookEndpointID, scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> (url: String, store: StoreID?, plain: String?, sealed: Data, keyID: Int)? {
        let rows = try await client.run(
            """
            SELECT w.url, w.store_id, w.secret, w.secret_sealed, w.secret_key_id FROM webhook_endpoints w
            WHERE w.id = \(id.rawValue) AND \(scope, column: "w.store_id")
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (
                try r["url"].decode(String.self), try r["store_id"].decode(UUID?.self).map(StoreID.init), try r["secret"].decode(String?.self),
                try r["secret_sealed"].decode(Data?.self) ?? Data(), Int(try r["secret_key_id"].decode(Int32?.self) ?? 0)
            )
        }
        return nil
    }

    /// Stores a new secret sealed under data key `keyID`, clearing any plain copy; nil when the
    /// caller has no such endpoint.
    package static func replaceSecret(
        _ id: WebhookEndpointID, scope: StoreScope, sealed: Data, keyID: Int, on connection: PostgresConnection, logger: Logger
    ) async throws -> WebhookEndpoint? {
        let rows = try await connection.run(
            """
            UPDATE webhook_endpoints w SET secret = NULL, secret_sealed = \(sealed), secret_key_id = \(Int32(keyID)), updated_at = now()
            WHERE w.id = \(id.rawValue) AND \(scope, column: "w.store_id")
            RETURNING \(unescaped: columns)
            """, logger: logger)
        return try await decode(rows).first?.0
    }

    /// Deletes the endpoint and its deliveries; false when the caller has no such endpoint.
    package static func delete(_ id: WebhookEndpointID, scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            DELETE FROM webhook_endpoints w
            WHERE w.id = \(id.rawValue) AND \(scope, column: "w.store_id")
            RETURNING 1
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    private static func decode(_ rows: SQLRows) async throws -> [(WebhookEndpoint, Int64)] {
        var found: [(WebhookEndpoint, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            found.append(
                (
                    WebhookEndpoint(
                        id: WebhookEndpointID(try r["id"].decode(UUID.self)), store: try r["store_id"].decode(UUID?.self).map(StoreID.init),
                        url: try r["url"].decode(String.self), description: try r["description"].decode(String.self),
                        eventTypes: try r["event_types"].decode([String].self), enabled: try r["enabled"].decode(Bool.self),
                        disabledReason: try r["disabled_reason"].decode(String?.self), failingSince: try r["failing_since"].decode(Date?.self),
                        createdAt: try r["created_at"].decode(Date.self), updatedAt: try r["updated_at"].decode(Date.self)),
                    try r["created_micros"].decode(Int64.self)
                ))
        }
        return found
    }
}
