import Foundation
import Logging
import PostgresNIO

/// The SQL of minimum ages: the chain's on `products`, a store's own in `store_minimum_ages`
/// (migration 022), and `minimum_age_at` (`sql/routines/`), which checkout's lines record.
package enum MinimumAgeQueries {
    /// Sets (or clears) the chain's age; false when no such product exists.
    package static func setChainWide(_ age: Int?, product: ProductID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            "UPDATE products SET minimum_age = \(age), updated_at = now() WHERE id = \(product.rawValue) RETURNING 1", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// The chain's and the caller's store's age of a product; nil when no such product exists.
    package static func ages(of product: ProductID, at scope: StoreScope, on client: PostgresClient, logger: Logger) async throws
        -> ProductMinimumAge?
    {
        let rows = try await client.run(
            """
            SELECT p.minimum_age AS chain_age, s.minimum_age AS store_age
              FROM products p LEFT JOIN store_minimum_ages s ON s.store_id = \(scope) AND s.product_id = p.id
             WHERE p.id = \(product.rawValue)
            """, logger: logger)
        for try await row in rows { return try ages(row) }
        return nil
    }

    /// Writes the caller's store's own age when it is not below the chain's (clears it for nil), in one
    /// statement; answers the ages as they now are, or, when the age was refused, the chain's
    /// with the store's unchanged (the caller tells why). Nil when no such product exists.
    package static func setForStore(
        _ age: Int?, product: ProductID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> ProductMinimumAge? {
        let rows = try await client.run(
            """
            WITH p AS (SELECT id, minimum_age FROM products WHERE id = \(product.rawValue)),
            written AS (
                INSERT INTO store_minimum_ages AS s (store_id, product_id, minimum_age)
                SELECT \(scope), p.id, \(age)::integer FROM p
                 WHERE \(age)::integer IS NOT NULL AND \(age)::integer >= coalesce(p.minimum_age, 0)
                ON CONFLICT (store_id, product_id) DO UPDATE SET minimum_age = EXCLUDED.minimum_age, updated_at = now()
                RETURNING s.minimum_age),
            cleared AS (
                DELETE FROM store_minimum_ages s USING p
                 WHERE \(age)::integer IS NULL AND s.store_id = \(scope) AND s.product_id = p.id)
            SELECT p.minimum_age AS chain_age,
                   CASE WHEN \(age)::integer IS NULL THEN NULL
                        ELSE coalesce((SELECT minimum_age FROM written),
                                      (SELECT minimum_age FROM store_minimum_ages WHERE store_id = \(scope) AND product_id = p.id))
                   END AS store_age
              FROM p
            """, logger: logger)
        for try await row in rows { return try ages(row) }
        return nil
    }

    /// The ages from a row's `chain_age` and `store_age`.
    private static func ages(_ row: PostgresRow) throws -> ProductMinimumAge {
        let r = row.makeRandomAccess()
        return ProductMinimumAge(chain: try r["chain_age"].decode(Int?.self), store: try r["store_age"].decode(Int?.self))
    }

    /// The import's chain-wide ages by SKU, in the import's transaction (after its products exist).
    package static func setChainWide(_ ages: [(String, Int?)], on connection: PostgresConnection, logger: Logger) async throws {
        guard !ages.isEmpty else { return }
        // 0 stands for "none" in the bound array (ages are 1...120), turned back into NULL here.
        try await connection.run(
            """
            UPDATE products p SET minimum_age = NULLIF(u.age, 0), updated_at = now()
            FROM unnest(\(ages.map(\.0))::text[], \(ages.map { Int32($0.1 ?? 0) })::int4[]) AS u(sku, age)
            WHERE p.sku = u.sku AND p.minimum_age IS DISTINCT FROM NULLIF(u.age, 0)
            """, logger: logger)
    }
}
