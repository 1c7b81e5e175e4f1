import Foundation
import Logging
import PostgresNIO

/// The SQL of product images (kept in the database so every instance serves them).
package enum ImageQueries {
    /// Writes the product's image at `position` (0: the one listings show), with its text
    /// alternative (nil keeps the one it has).
    package static func store(
        _ image: ProductImage, product: ProductID, position: Int = 0, altText: String? = nil, on client: PostgresClient, logger: Logger
    ) async throws {
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO product_images AS i (product_id, position, alt_text, content_type, bytes, sha256)
                VALUES (\(product.rawValue), \(Int16(position)), coalesce(\(altText), ''), \(image.kind.rawValue), \(ByteBuffer(data: image.bytes)),
                        \(ByteBuffer(data: image.sha256)))
                ON CONFLICT (product_id, position) DO UPDATE
                SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now(),
                    alt_text = coalesce(\(altText), i.alt_text)
                """, logger: logger)
        }
    }

    package static func image(product: ProductID, position: Int = 0, on client: PostgresClient, logger: Logger) async throws -> ProductImage? {
        let rows = try await client.run(
            "SELECT content_type, bytes FROM product_images WHERE product_id = \(product.rawValue) AND position = \(Int16(position))",
            logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return try ProductImage(
                bytes: Data(buffer: try r["bytes"].decode(ByteBuffer.self)), declared: try r["content_type"].stored(ProductImage.Kind.self))
        }
        return nil
    }
}
