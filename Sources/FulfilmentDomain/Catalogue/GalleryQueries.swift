import Foundation
import Logging
import PostgresNIO

/// The SQL of a product's gallery (migration 048: images at positions 0 to 9, 0 the one
/// listings show), each change one statement, so the positions stay 0, 1, 2... without gaps.
///
/// Moving rows to other positions is a delete and an insert in one statement (data-modifying
/// CTEs): an UPDATE of the positions would meet the primary key row by row, in no set order.
package enum GalleryQueries {
    /// Stores `image` at `position` when that is a position the product has or the next one:
    /// nil when stored, else how many images it has (the position past them is the next).
    package static func place(
        _ image: ProductImage, product: ProductID, position: Int, altText: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Int? {
        let rows = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                WITH held AS (SELECT count(*)::int AS n FROM product_images WHERE product_id = \(product.rawValue)),
                stored AS (
                    INSERT INTO product_images AS i (product_id, position, alt_text, content_type, bytes, sha256)
                    SELECT \(product.rawValue), \(Int16(position)), coalesce(\(altText), ''), \(image.kind.rawValue),
                           \(ByteBuffer(data: image.bytes)), \(ByteBuffer(data: image.sha256))
                    FROM held WHERE \(Int32(position)) <= held.n
                    ON CONFLICT (product_id, position) DO UPDATE
                    SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now(),
                        alt_text = coalesce(\(altText), i.alt_text)
                    RETURNING 1)
                SELECT (SELECT count(*) FROM stored) AS stored, (SELECT n FROM held) AS held
                """, logger: logger)
        }
        let row = rows.collect()[0].makeRandomAccess()
        return try row["stored"].decode(Int64.self) > 0 ? nil : Int(try row["held"].decode(Int32.self))
    }

    /// Changes the image at `position`: its text (nil keeps it) and its place (`to`, nil keeps
    /// it; past the last, last), the others closing up in their order. False when there is none.
    package static func change(
        product: ProductID, position: Int, altText: String?, to target: Int?, on client: PostgresClient, logger: Logger
    ) async throws -> Bool {
        let rows = try await client.run(
            """
            WITH old AS (
                DELETE FROM product_images
                 WHERE product_id = \(product.rawValue)
                   AND EXISTS (SELECT 1 FROM product_images WHERE product_id = \(product.rawValue) AND position = \(Int16(position)))
                RETURNING *),
            keyed AS (
                SELECT o.*, CASE WHEN o.position = \(Int16(position))
                                 THEN 2 * least(coalesce(\(target.map(Int32.init))::int, o.position), (SELECT count(*) - 1 FROM old))
                                 ELSE 2 * (row_number() OVER (PARTITION BY o.position = \(Int16(position)) ORDER BY o.position) - 1) + 1
                            END AS k
                FROM old o),
            placed AS (
                INSERT INTO product_images (product_id, position, alt_text, content_type, bytes, sha256, updated_at)
                SELECT product_id, (row_number() OVER (ORDER BY k) - 1)::int2,
                       CASE WHEN position = \(Int16(position)) THEN coalesce(\(altText), alt_text) ELSE alt_text END,
                       content_type, bytes, sha256, CASE WHEN position = \(Int16(position)) THEN now() ELSE updated_at END
                FROM keyed
                RETURNING 1)
            SELECT count(*) AS placed FROM placed
            """, logger: logger)
        return try rows.collect()[0].makeRandomAccess()["placed"].decode(Int64.self) > 0
    }

    /// Removes the image at `position`; the ones after it move up one. False when there is none.
    package static func remove(product: ProductID, position: Int, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            WITH gone AS (
                DELETE FROM product_images WHERE product_id = \(product.rawValue) AND position = \(Int16(position)) RETURNING 1),
            after AS (
                DELETE FROM product_images
                 WHERE product_id = \(product.rawValue) AND position > \(Int16(position))
                   AND EXISTS (SELECT 1 FROM product_images WHERE product_id = \(product.rawValue) AND position = \(Int16(position)))
                RETURNING *),
            moved AS (
                INSERT INTO product_images (product_id, position, alt_text, content_type, bytes, sha256, updated_at)
                SELECT product_id, position - 1, alt_text, content_type, bytes, sha256, updated_at FROM after
                RETURNING 1)
            SELECT (SELECT count(*) FROM gone) AS gone, (SELECT count(*) FROM moved) AS moved
            """, logger: logger)
        return try rows.collect()[0].makeRandomAccess()["gone"].decode(Int64.self) > 0
    }
}
