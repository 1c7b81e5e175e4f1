import Foundation
import Logging
import PostgresNIO

/// The SQL of news and recipe images (`content_images`, migration 039). Whose item it is, and
/// who may see it, is the caller's check (`News`, `Recipes`); these only store and read.
package enum ContentImageQueries {
    package enum Owner: Sendable {
        case news(NewsID)
        case recipe(RecipeID)

        package var ids: (UUID?, UUID?) {
            switch self {
            case .news(let id): (id.rawValue, nil)
            case .recipe(let id): (nil, id.rawValue)
            }
        }
    }

    package static func store(_ image: ProductImage, of owner: Owner, on client: PostgresClient, logger: Logger) async throws {
        let bytes = ByteBuffer(data: image.bytes)
        let sha = ByteBuffer(data: image.sha256)
        // One statement per owner: the conflict target is the owner's column.
        switch owner {
        case .news(let id):
            try await client.run(
                """
                INSERT INTO content_images (news_id, content_type, bytes, sha256)
                VALUES (\(id.rawValue), \(image.kind.rawValue), \(bytes), \(sha))
                ON CONFLICT (news_id) DO UPDATE
                SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now()
                """, logger: logger)
        case .recipe(let id):
            try await client.run(
                """
                INSERT INTO content_images (recipe_id, content_type, bytes, sha256)
                VALUES (\(id.rawValue), \(image.kind.rawValue), \(bytes), \(sha))
                ON CONFLICT (recipe_id) DO UPDATE
                SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now()
                """, logger: logger)
        }
    }

    package static func image(of owner: Owner, on client: PostgresClient, logger: Logger) async throws -> ProductImage? {
        let (news, recipe) = owner.ids
        let rows = try await client.run(
            "SELECT content_type, bytes FROM content_images WHERE news_id = \(news) OR recipe_id = \(recipe)", logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return try ProductImage(
                bytes: Data(buffer: try r["bytes"].decode(ByteBuffer.self)), declared: try r["content_type"].stored(ProductImage.Kind.self))
        }
        return nil
    }
}
