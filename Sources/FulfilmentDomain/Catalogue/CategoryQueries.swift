import Logging
import PostgresNIO

/// The SQL of the category listing.
package enum CategoryQueries {
    /// Every category with its count of products on sale (not discontinued, with a category),
    /// by name, case-insensitive. With a store, only the products it carries count: those it has
    /// a stock row for, the rule of search's store filter (`ProductQueries.search`).
    package static func counts(store: StoreID?, on client: PostgresClient, logger: Logger) async throws -> [CategoryCount] {
        let rows = try await client.run(
            """
            SELECT p.category, count(*)::int8 AS product_count
            FROM products p
            WHERE NOT p.discontinued AND p.category <> ''
              AND (\(store?.rawValue)::uuid IS NULL
                   OR EXISTS (SELECT 1 FROM stock s WHERE s.store_id = \(store?.rawValue) AND s.product_id = p.id))
            GROUP BY p.category
            ORDER BY lower(p.category), p.category
            """, logger: logger)
        var counts: [CategoryCount] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            counts.append(CategoryCount(name: try r["category"].decode(String.self), productCount: Int(try r["product_count"].decode(Int64.self))))
        }
        return counts
    }
}
