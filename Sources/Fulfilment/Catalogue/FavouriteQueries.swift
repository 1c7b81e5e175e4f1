import Foundation
import Logging
import PostgresNIO

/// The SQL of a customer's favourites and chosen store.
enum FavouriteQueries {
    /// Idempotent: adding a favourite twice keeps the first date.
    static func add(user userID: UUID, product productID: UUID, on client: PostgresClient, logger: Logger) async throws {
        do {
            try await client.run(
                """
                INSERT INTO favourites (user_id, product_id) VALUES (\(userID), \(productID))
                ON CONFLICT (user_id, product_id) DO NOTHING
                """, logger: logger)
        } catch where error.sqlState == SQLState.foreignKeyViolation && error.constraintName == "favourites_product_id_fkey" {
            throw CatalogueError.productNotFound
        }
    }

    static func remove(user userID: UUID, product productID: UUID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "DELETE FROM favourites WHERE user_id = \(userID) AND product_id = \(productID)", logger: logger)
    }

    /// Newest first, each with its stock at `storeID` when given.
    static func list(
        user userID: UUID, store storeID: UUID?, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<(ProductRecord, Date)> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductRecord.columns), f.created_at,
                   (extract(epoch FROM f.created_at) * 1000000)::int8 AS added_micros
            FROM favourites f
            JOIN products p ON p.id = f.product_id
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID)
            \(unescaped: ProductRecord.extraJoins)
            WHERE f.user_id = \(userID)
              AND (\(after == nil) OR ((extract(epoch FROM f.created_at) * 1000000)::int8, f.product_id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY f.created_at DESC, f.product_id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, Date, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append((try ProductRecord(row: row), try r["created_at"].decode(Date.self), try r["added_micros"].decode(Int64.self)))
        }
        let page = Array(result.prefix(limit))
        let next = result.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.2, id: $0.0.id)) } : nil
        return Page(items: page.map { ($0.0, $0.1) }, nextCursor: next)
    }

    /// The customer's chosen store, if they chose one.
    static func chosenStore(user userID: UUID, on client: PostgresClient, logger: Logger) async throws -> UUID? {
        try await client.run("SELECT store_id FROM customer_stores WHERE user_id = \(userID)", logger: logger)
            .decode(UUID.self).first { _ in true }
    }

    static func chooseStore(user userID: UUID, store storeID: UUID, on client: PostgresClient, logger: Logger) async throws {
        do {
            try await client.run(
                """
                INSERT INTO customer_stores (user_id, store_id) VALUES (\(userID), \(storeID))
                ON CONFLICT (user_id) DO UPDATE SET store_id = EXCLUDED.store_id, updated_at = now()
                """, logger: logger)
        } catch where error.sqlState == SQLState.foreignKeyViolation && error.constraintName == "customer_stores_store_id_fkey" {
            throw CatalogueError.storeNotFound
        }
    }
}
