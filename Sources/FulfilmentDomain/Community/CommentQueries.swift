import Foundation
import Logging
import PostgresNIO

/// The SQL of comments (`comments`, migration 038). A comment takes its target's store, so the
/// target's moderators moderate it.
package enum CommentQueries {
    /// The columns ``comment(_:)`` reads, over `comments c` and ``joins``.
    package static let columns = """
        c.id, c.recipe_id, c.news_id, n_store.store_id AS news_store, c.author_id, coalesce(u.name, 'A former customer') AS author_name,
        c.body_markdown, c.hidden_at IS NOT NULL AS hidden, c.created_at
        """
    package static let joins = """
        LEFT JOIN users u ON u.id = c.author_id
        LEFT JOIN news_items n_store ON n_store.id = c.news_id
        """

    /// Oldest first; nil when the target is not there for this viewer (a hidden recipe, an
    /// unpublished or other store's news item).
    package static func list(
        on target: UserComment.Target, viewer: Viewer, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<UserComment>? {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let (recipe, news, store) = target.ids
        let rows = try await client.run(
            """
            WITH target AS (
                SELECT r.id FROM recipes r
                 WHERE r.id = \(recipe) AND content_visible(r.hidden_at, r.author_id, r.store_id, \(viewer: viewer))
                UNION ALL
                SELECT n.id FROM news_items n WHERE n.id = \(news) AND n.store_id = \(store) AND n.published)
            SELECT true AS target_row, NULL::uuid AS id, NULL::uuid AS recipe_id, NULL::uuid AS news_id, NULL::uuid AS news_store,
                   NULL::uuid AS author_id, NULL::text AS author_name, NULL::text AS body_markdown, NULL::bool AS hidden,
                   NULL::timestamptz AS created_at, NULL::int8 AS created_micros
              FROM target
            UNION ALL
            (SELECT false, \(unescaped: columns), (extract(epoch FROM c.created_at) * 1000000)::int8
               FROM comments c \(unescaped: joins)
              WHERE (c.recipe_id = \(recipe) OR c.news_id = \(news))
                AND content_visible(c.hidden_at, c.author_id, c.store_id, \(viewer: viewer))
                AND (\(after == nil) OR ((extract(epoch FROM c.created_at) * 1000000)::int8, c.id) > (\(after?.t ?? 0), \(after?.id ?? UUID())))
              ORDER BY c.created_at, c.id
              LIMIT \(limit + 1))
            """, logger: logger)
        var found = false
        var comments: [(UserComment, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            // The UNION's columns are named by its first part: the target's row.
            if try r["target_row"].decode(Bool.self) {
                found = true
                continue
            }
            comments.append((try comment(r), try r["created_micros"].decode(Int64.self)))
        }
        guard found else { return nil }
        // The two branches of the UNION come back in order in practice; the order is the query's, not the plan's.
        comments.sort { ($0.1, $0.0.id.description) < ($1.1, $1.0.id.description) }
        let page = Array(comments.prefix(limit))
        let next = comments.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// Writes the comment on a target this writer can see (nil: none such).
    package static func create(
        on target: UserComment.Target, body: String, by viewer: Viewer, on connection: PostgresConnection, logger: Logger
    ) async throws -> UserComment? {
        let (recipe, news, store) = target.ids
        let rows = try await connection.run(
            """
            WITH target AS (
                SELECT r.id AS recipe_id, NULL::uuid AS news_id, r.store_id FROM recipes r
                 WHERE r.id = \(recipe) AND content_visible(r.hidden_at, r.author_id, r.store_id, \(viewer: viewer))
                UNION ALL
                SELECT NULL::uuid, n.id, n.store_id FROM news_items n WHERE n.id = \(news) AND n.store_id = \(store) AND n.published),
            c AS (
                INSERT INTO comments (store_id, recipe_id, news_id, author_id, body_markdown)
                SELECT t.store_id, t.recipe_id, t.news_id, \(viewer.user?.rawValue), \(body) FROM target t
                RETURNING *)
            SELECT \(unescaped: columns) FROM c \(unescaped: joins)
            """, logger: logger)
        return try rows.collect().first.map { try comment($0.makeRandomAccess()) }
    }

    package static func delete(_ id: CommentID, by user: UserID, on client: PostgresClient, logger: Logger) async throws -> OwnDeletion {
        let rows = try await client.run(
            """
            WITH found AS (SELECT c.id, coalesce(c.author_id = \(user.rawValue), false) AS own FROM comments c WHERE c.id = \(id.rawValue)),
            gone AS (DELETE FROM comments c USING found f WHERE c.id = f.id AND f.own RETURNING c.id)
            SELECT f.own FROM found f
            """, logger: logger)
        guard let own = try rows.collect().first?.decode(Bool.self) else { return .notFound }
        return own ? .deleted : .notAuthor
    }

    /// A comment from a row of ``columns``.
    private static func comment(_ r: PostgresRandomAccessRow) throws -> UserComment {
        let id = CommentID(try r["id"].decode(UUID.self))
        let target: UserComment.Target
        if let recipe = try r["recipe_id"].decode(UUID?.self) {
            target = .recipe(RecipeID(recipe))
        } else {
            target = .news(NewsID(try r["news_id"].decode(UUID.self)), store: StoreID(try r["news_store"].decode(UUID.self)))
        }
        return UserComment(
            id: id, target: target,
            author: Author(id: try r["author_id"].decode(UUID?.self).map(UserID.init), name: try r["author_name"].decode(String.self)),
            bodyMarkdown: try r["body_markdown"].decode(String.self), hidden: try r["hidden"].decode(Bool.self),
            createdAt: try r["created_at"].decode(Date.self))
    }
}

extension UserComment.Target {
    /// The recipe, the news item and its store, as binds (the others NULL).
    package var ids: (UUID?, UUID?, UUID?) {
        switch self {
        case .recipe(let id): (id.rawValue, nil, nil)
        case .news(let id, let store): (nil, id.rawValue, store.rawValue)
        }
    }
}
