import Foundation
import Logging
import PostgresNIO

/// The SQL of erasure (`erase_account`, migration 040) and of the export's reads (`Export`).
package enum PrivacyQueries {
    package static func role(of user: UserID, on client: PostgresClient, logger: Logger) async throws -> Role? {
        let rows = try await client.run("SELECT role FROM users WHERE id = \(user.rawValue) AND erased_at IS NULL", logger: logger)
        return try rows.collect().first.map { try $0.makeRandomAccess()["role"].stored(Role.self) }
    }

    package static func isStaff(_ user: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            SELECT 1 FROM users WHERE id = \(user.rawValue) AND store_id = \(scope) AND role IN ('staff', 'manager') AND erased_at IS NULL
            """, logger: logger)
        return !rows.collect().isEmpty
    }

    /// nil when erased (or already), else the open orders that stop it.
    package static func erase(
        _ user: UserID, by: UserID, reason: String, deleteContent: Bool, on client: PostgresClient, logger: Logger
    ) async throws -> [JSONValue]? {
        let rows = try await client.run(
            "SELECT erase_account(\(user.rawValue), \(by.rawValue), \(reason), \(deleteContent))::text", logger: logger)
        guard let text = try rows.collect().first?.decode(String?.self) else { return nil }
        struct Refusal: Decodable { var orders: [JSONValue] }
        return try JSONDecoder().decode(Refusal.self, from: Data(text.utf8)).orders
    }

    /// The export's first part, as JSON text without its closing brace: the account, sessions
    /// (times only, never tokens), the cart and favourites.
    package static func exportHead(_ user: UserID, on client: PostgresClient, logger: Logger) async throws -> String {
        let rows = try await client.run("SELECT export_head(\(user.rawValue))::text", logger: logger)
        return try rows.collect()[0].decode(String.self)
    }

    /// A page of the user's orders (oldest first, after the keyset of placing time in
    /// microseconds and id), each as JSON text with its keyset.
    package static func exportOrders(
        _ user: UserID, after: (Int64, UUID)?, limit: Int, on client: PostgresClient, logger: Logger
    ) async throws -> [(String, Int64, UUID)] {
        let rows = try await client.run(
            """
            SELECT export_order_json(o.id)::text AS order_json, (extract(epoch FROM o.created_at) * 1000000)::int8 AS t, o.id FROM orders o
             WHERE o.customer_id = \(user.rawValue)
               AND (\(after == nil) OR ((extract(epoch FROM o.created_at) * 1000000)::int8, o.id) > (\(after?.0 ?? 0), \(after?.1 ?? UUID())))
             ORDER BY t, o.id LIMIT \(limit)
            """, logger: logger)
        return try rows.collect().map {
            let r = $0.makeRandomAccess()
            return (try r["order_json"].decode(String.self), try r["t"].decode(Int64.self), try r["id"].decode(UUID.self))
        }
    }

    /// The export's last part: the user's recipes, comments and reviews, and the webhook
    /// deliveries that carried their orders' events (a count per store, not the payloads).
    package static func exportTail(_ user: UserID, on client: PostgresClient, logger: Logger) async throws -> String {
        let rows = try await client.run("SELECT export_tail(\(user.rawValue))::text", logger: logger)
        return try rows.collect()[0].decode(String.self)
    }
}

extension PrivacyQueries {
    /// One round of the retention sweep (`retire_orders`): how many orders it anonymised.
    package static func retireOrders(olderThan days: Int, limit: Int, on client: PostgresClient, logger: Logger) async throws -> Int {
        let rows = try await client.run("SELECT retire_orders(\(Int32(days)), \(Int32(limit)))", logger: logger)
        return Int(try rows.collect()[0].decode(Int32.self))
    }
}
