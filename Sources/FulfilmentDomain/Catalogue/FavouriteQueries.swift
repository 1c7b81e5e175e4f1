import Foundation
import Logging
import PostgresNIO

/// The SQL of a customer's favourites and chosen store.
package enum FavouriteQueries {
    /// Idempotent: adding a favourite twice keeps the first date.
    package static func add(user: UserID, product: ProductID, on client: PostgresClient, logger: Logger) async throws {
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO favourites (user_id, product_id) VALUES (\(user.rawValue), \(product.rawValue))
                ON CONFLICT (user_id, product_id) DO NOTHING
                """, logger: logger)
        }
    }

    package static func remove(user: UserID, product: ProductID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "DELETE FROM favourites WHERE user_id = \(user.rawValue) AND product_id = \(product.rawValue)", logger: logger)
    }

    /// Newest first, each with its stock at `store` when given.
    package static func list(
        user: UserID, store: StoreID?, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<(ProductRecord, Date)> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductQueries.columns), f.created_at,
                   (extract(epoch FROM f.created_at) * 1000000)::int8 AS added_micros
            FROM favourites f
            JOIN products p ON p.id = f.product_id
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(store?.rawValue)
            \(unescaped: ProductQueries.extraJoins)
            WHERE f.user_id = \(user.rawValue)
              AND (\(after == nil) OR ((extract(epoch FROM f.created_at) * 1000000)::int8, f.product_id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY f.created_at DESC, f.product_id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, Date, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append((try ProductQueries.record(row), try r["created_at"].decode(Date.self), try r["added_micros"].decode(Int64.self)))
        }
        let page = Array(result.prefix(limit))
        let next = result.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.2, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map { ($0.0, $0.1) }, nextCursor: next)
    }

    /// The customer's chosen store, if they chose one.
    package static func chosenStore(user: UserID, on client: PostgresClient, logger: Logger) async throws -> StoreID? {
        try await client.run("SELECT store_id FROM customer_stores WHERE user_id = \(user.rawValue)", logger: logger)
            .decode(UUID.self).first { _ in true }.map(StoreID.init)
    }

    package static func chooseStore(user: UserID, store: StoreID, on client: PostgresClient, logger: Logger) async throws {
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO customer_stores (user_id, store_id) VALUES (\(user.rawValue), \(store.rawValue))
                ON CONFLICT (user_id) DO UPDATE SET store_id = EXCLUDED.store_id, updated_at = now()
                """, logger: logger)
        }
    }
}
