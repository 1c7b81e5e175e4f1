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
        let (news, recipe) = owner.ids
        let bytes = ByteBuffer(data: image.bytes)
        let sha = ByteBuffer(data: image.sha256)
        // The conflict target is the owner's column: a constant of this file, never a client's text.
        let column = news == nil ? "recipe_id" : "news_id"
        try await client.run(
            """
            INSERT INTO content_images (news_id, recipe_id, content_type, bytes, sha256)
            VALUES (\(news), \(recipe), \(image.kind.rawValue), \(bytes), \(sha))
            ON CONFLICT (\(unescaped: column)) DO UPDATE
            SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now()
            """, logger: logger)
    }

    package static func image(of owner: Owner, on client: PostgresClient, logger: Logger) async throws -> ProductImage? {
        let (news, recipe) = owner.ids
        let rows = try await client.run(
            "SELECT content_type, bytes FROM content_images WHERE news_id = \(news) OR recipe_id = \(recipe)", logger: logger)
        for try await (type, bytes) in rows.decode((String, ByteBuffer).self) {
            return try ProductImage(bytes: Data(buffer: bytes), declared: ProductImage.Kind(rawValue: type))
        }
        return nil
    }
}
