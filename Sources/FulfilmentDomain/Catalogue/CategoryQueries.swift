import Foundation
import Logging
import PostgresNIO

/// The SQL of the category listing, each category with what `category_details` (migration 049)
/// says about it: a description and the product whose first image is its picture (when it has one).
package enum CategoryQueries {
    /// Every category with its count of products on sale (not discontinued, with a category),
    /// by name, case-insensitive. With a store, only the products it carries count: those it has
    /// a stock row for, the rule of search's store filter (`ProductQueries.search`). Read from
    /// the counts the database keeps as products and stock change (migration 050), not counted
    /// per page.
    package static func counts(store: StoreID?, on client: PostgresClient, logger: Logger) async throws -> [CategoryCount] {
        let rows = try await client.read(
            """
            SELECT n.category, n.product_count, coalesce(d.description, '') AS description,
                   (SELECT i.product_id FROM product_images i WHERE i.product_id = d.image_product_id AND i.position = 0) AS image_product_id
            FROM category_counts n
            LEFT JOIN category_details d ON d.name = n.category
            WHERE n.product_count > 0
              AND (n.store_id = \(store?.rawValue) OR (\(store?.rawValue)::uuid IS NULL AND n.store_id IS NULL))
            ORDER BY lower(n.category), n.category
            """, logger: logger)
        var counts: [CategoryCount] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            counts.append(
                CategoryCount(
                    name: try r["category"].decode(String.self), productCount: Int(try r["product_count"].decode(Int64.self)),
                    description: try r["description"].decode(String.self),
                    imageProductID: try r["image_product_id"].decode(UUID?.self).map(ProductID.init)))
        }
        return counts
    }

    /// What writing a category's details came to.
    package enum DetailsOutcome: Sendable {
        case stored(CategoryCount)
        case noSuchProduct
        case productWithoutImage
    }

    /// Writes what the shop says about `name`, and its picture (the first image of `image`),
    /// unless `image` names no product, or one without an image. The count is over the whole
    /// catalogue.
    package static func setDetails(
        name: String, description: String, image: ProductID?, on client: PostgresClient, logger: Logger
    ) async throws -> DetailsOutcome {
        let rows = try await client.run(
            """
            WITH pictured AS (
                SELECT \(image?.rawValue)::uuid AS id
                 WHERE \(image?.rawValue)::uuid IS NULL
                    OR EXISTS (SELECT 1 FROM product_images i WHERE i.product_id = \(image?.rawValue) AND i.position = 0)),
            stored AS (
                INSERT INTO category_details (name, description, image_product_id)
                SELECT \(name), \(description), pictured.id FROM pictured
                ON CONFLICT (name) DO UPDATE
                SET description = EXCLUDED.description, image_product_id = EXCLUDED.image_product_id, updated_at = now()
                RETURNING 1)
            SELECT (SELECT count(*) FROM stored) AS stored,
                   \(image?.rawValue)::uuid IS NULL OR EXISTS (SELECT 1 FROM products p WHERE p.id = \(image?.rawValue)) AS product_known,
                   coalesce((SELECT c.product_count FROM category_counts c WHERE c.store_id IS NULL AND c.category = \(name)), 0) AS product_count
            """, logger: logger)
        let row = rows.collect()[0].makeRandomAccess()
        guard try row["stored"].decode(Int64.self) > 0 else {
            return try row["product_known"].decode(Bool.self) ? .productWithoutImage : .noSuchProduct
        }
        return .stored(
            CategoryCount(name: name, productCount: Int(try row["product_count"].decode(Int64.self)), description: description, imageProductID: image)
        )
    }
}
