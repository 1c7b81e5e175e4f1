import Foundation
import Logging
import PostgresNIO

/// The SQL of news (`news_items`, migration 038). Writes bind the caller's store.
package enum NewsQueries {
    /// The columns ``item(_:)`` reads, over `news_items n`.
    package static let columns = """
        n.id, n.store_id, n.title, n.body_markdown, n.published, n.published_at, n.pinned,
        (SELECT count(*) FROM comments c WHERE c.news_id = n.id AND c.hidden_at IS NULL)::int4 AS comment_count,
        n.created_at, n.updated_at, EXISTS (SELECT 1 FROM content_images ci WHERE ci.news_id = n.id) AS has_image
        """

    /// The keyset of the readers' order: pinned first, then newest published, then id.
    package struct Cursor: Codable {
        package var p: Bool
        package var t: Int64
        package var id: UUID
    }

    package static func published(at store: StoreID, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger) async throws -> Page<
        NewsItem
    > {
        let after = try PageCursor.decode(cursor, as: Cursor.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns), (extract(epoch FROM n.published_at) * 1000000)::int8 AS published_micros
            FROM news_items n
            WHERE n.store_id = \(store.rawValue) AND n.published
              AND (\(after == nil) OR (1 - n.pinned::int, -(extract(epoch FROM n.published_at) * 1000000)::int8, n.id)
                                      > (\(after.map { $0.p ? 0 : 1 } ?? 0), \(-(after?.t ?? 0)), \(after?.id ?? UUID())))
            ORDER BY 1 - n.pinned::int, -(extract(epoch FROM n.published_at) * 1000000)::int8, n.id
            LIMIT \(limit + 1)
            """, logger: logger)
        var items: [(NewsItem, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            items.append((try item(r), try r["published_micros"].decode(Int64.self)))
        }
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(Cursor(p: $0.0.pinned, t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    package static func all(in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> [NewsItem] {
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns) FROM news_items n WHERE n.store_id = \(scope)
            ORDER BY n.pinned DESC, coalesce(n.published_at, n.created_at) DESC, n.id LIMIT 200
            """, logger: logger)
        return try rows.collect().map { try item($0.makeRandomAccess()) }
    }

    package static func item(_ id: NewsID, at store: StoreID, on client: PostgresClient, logger: Logger) async throws -> NewsItem? {
        let rows = try await client.run(
            "SELECT \(unescaped: columns) FROM news_items n WHERE n.id = \(id.rawValue) AND n.store_id = \(store.rawValue)", logger: logger)
        return try rows.collect().first.map { try item($0.makeRandomAccess()) }
    }

    package static func create(
        _ draft: NewsItem.Draft, by author: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> NewsItem {
        let rows = try await client.run(
            """
            WITH n AS (
                INSERT INTO news_items (store_id, author_id, title, body_markdown, published, published_at, pinned)
                VALUES (\(scope), \(author.rawValue), \(draft.title), \(draft.bodyMarkdown), \(draft.published),
                        CASE WHEN \(draft.published) THEN now() END, \(draft.pinned))
                RETURNING *)
            SELECT \(unescaped: columns) FROM n
            """, logger: logger)
        guard let row = rows.collect().first else { throw ContentError.storeNotFound }
        return try item(row.makeRandomAccess())
    }

    /// Rewrites the item; publishing it the first time sets `published_at`, which it then keeps.
    package static func update(
        _ id: NewsID, _ draft: NewsItem.Draft, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> NewsItem? {
        let rows = try await client.run(
            """
            WITH n AS (
                UPDATE news_items SET title = \(draft.title), body_markdown = \(draft.bodyMarkdown), published = \(draft.published),
                       published_at = coalesce(published_at, CASE WHEN \(draft.published) THEN now() END),
                       pinned = \(draft.pinned), updated_at = now()
                 WHERE id = \(id.rawValue) AND store_id = \(scope)
                RETURNING *)
            SELECT \(unescaped: columns) FROM n
            """, logger: logger)
        return try rows.collect().first.map { try item($0.makeRandomAccess()) }
    }

    package static func delete(_ id: NewsID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            "DELETE FROM news_items WHERE id = \(id.rawValue) AND store_id = \(scope) RETURNING id", logger: logger)
        return !rows.collect().isEmpty
    }

    private static func item(_ r: PostgresRandomAccessRow) throws -> NewsItem {
        NewsItem(
            id: NewsID(try r["id"].decode(UUID.self)), store: StoreID(try r["store_id"].decode(UUID.self)),
            title: try r["title"].decode(String.self), bodyMarkdown: try r["body_markdown"].decode(String.self),
            published: try r["published"].decode(Bool.self), publishedAt: try r["published_at"].decode(Date?.self),
            pinned: try r["pinned"].decode(Bool.self), commentCount: Int(try r["comment_count"].decode(Int32.self)),
            createdAt: try r["created_at"].decode(Date.self), updatedAt: try r["updated_at"].decode(Date.self),
            hasImage: try r["has_image"].decode(Bool.self))
    }
}
