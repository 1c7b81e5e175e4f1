import Foundation
import Logging
import PostgresNIO

/// The SQL of product images (kept in the database so every instance serves them).
package enum ImageQueries {
    package static func store(_ image: ProductImage, product: ProductID, on client: PostgresClient, logger: Logger) async throws {
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO product_images (product_id, content_type, bytes, sha256)
                VALUES (\(product.rawValue), \(image.kind.rawValue), \(ByteBuffer(data: image.bytes)), \(ByteBuffer(data: image.sha256)))
                ON CONFLICT (product_id) DO UPDATE
                SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now()
                """, logger: logger)
        }
    }

    package static func image(product: ProductID, on client: PostgresClient, logger: Logger) async throws -> ProductImage? {
        let rows = try await client.run(
            "SELECT content_type, bytes FROM product_images WHERE product_id = \(product.rawValue)", logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return try ProductImage(
                bytes: Data(buffer: try r["bytes"].decode(ByteBuffer.self)), declared: try r["content_type"].stored(ProductImage.Kind.self))
        }
        return nil
    }
}
