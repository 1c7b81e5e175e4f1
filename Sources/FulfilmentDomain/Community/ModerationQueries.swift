import Foundation
import Logging
import PostgresNIO

/// The SQL of reports, hiding and blocks (`content_reports`, `posting_blocks`, migration 038;
/// `community_content`, `moderate_content` in sql/routines).
package enum ModerationQueries {
    /// The columns ``report(_:)`` reads, over `content_reports r`, `community_content c` and the author `users u`.
    package static let reportColumns = """
        r.id, r.kind, r.content_id, r.store_id, r.reason, c.excerpt, c.author_id, coalesce(u.name, 'A former customer') AS author_name,
        c.hidden_at IS NOT NULL AS hidden, r.created_at, r.resolved_at
        """

    /// Files a report of content the reader can see, or answers their open one; nil: none such.
    package static func report(
        _ kind: ContentKind, _ id: UUID, reason: String, by viewer: Viewer, on client: PostgresClient, logger: Logger
    ) async throws -> (ContentReport, created: Bool)? {
        let rows = try await client.run(
            """
            WITH content AS (
                SELECT c.* FROM community_content c
                 WHERE c.kind = \(kind.rawValue) AND c.id = \(id)
                   AND content_visible(c.hidden_at, c.author_id, c.store_id, \(viewer: viewer))),
            made AS (
                INSERT INTO content_reports (store_id, kind, content_id, reporter_id, reason)
                SELECT c.store_id, c.kind, c.id, \(viewer.user?.rawValue), \(reason) FROM content c
                ON CONFLICT (kind, content_id, reporter_id) WHERE resolved_at IS NULL DO NOTHING
                RETURNING *),
            r AS (
                SELECT m.*, true AS created FROM made m
                UNION ALL
                SELECT o.*, false FROM content_reports o
                 WHERE o.kind = \(kind.rawValue) AND o.content_id = \(id) AND o.reporter_id = \(viewer.user?.rawValue)
                   AND o.resolved_at IS NULL AND NOT EXISTS (SELECT 1 FROM made))
            SELECT \(unescaped: reportColumns), r.created AS created
              FROM r JOIN content c ON true LEFT JOIN users u ON u.id = c.author_id
            """, logger: logger)
        guard let row = rows.collect().first else { return nil }
        let r = row.makeRandomAccess()
        return (try report(r), try r["created"].decode(Bool.self))
    }

    package static func reports(
        resolved: Bool, in scope: StoreScope, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<ContentReport> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: reportColumns), (extract(epoch FROM r.created_at) * 1000000)::int8 AS created_micros
              FROM content_reports r
              JOIN community_content c ON c.kind = r.kind AND c.id = r.content_id
              LEFT JOIN users u ON u.id = c.author_id
             WHERE (r.resolved_at IS NOT NULL) = \(resolved) AND \(scope, column: "r.store_id")
               AND (\(after == nil) OR ((extract(epoch FROM r.created_at) * 1000000)::int8, r.id) > (\(after?.t ?? 0), \(after?.id ?? UUID())))
             ORDER BY r.created_at, r.id
             LIMIT \(limit + 1)
            """, logger: logger)
        var found: [(ContentReport, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            found.append((try report(r), try r["created_micros"].decode(Int64.self)))
        }
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    package static func moderate(
        _ kind: ContentKind, _ id: UUID, hide: Bool, by moderator: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> (hidden: Bool, resolved: Int)? {
        let rows = try await client.run(
            "SELECT hidden, resolved FROM moderate_content(\(kind.rawValue), \(id), \(hide), \(moderator.rawValue), \(scope.store?.rawValue))",
            logger: logger)
        guard let row = rows.collect().first else { return nil }
        let r = row.makeRandomAccess()
        return (try r["hidden"].decode(Bool.self), Int(try r["resolved"].decode(Int32.self)))
    }

    /// The columns ``block(_:)`` reads, over `posting_blocks b JOIN users u` (the blocked user).
    package static let blockColumns = "b.user_id, u.name, b.store_id, b.reason, b.created_at"

    package static func blocks(in scope: StoreScope, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger) async throws -> Page<
        PostingBlock
    > {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: blockColumns), (extract(epoch FROM b.created_at) * 1000000)::int8 AS created_micros
              FROM posting_blocks b JOIN users u ON u.id = b.user_id
             WHERE \(scope, column: "b.store_id")
               AND (\(after == nil) OR ((extract(epoch FROM b.created_at) * 1000000)::int8, b.user_id) > (\(after?.t ?? 0), \(after?.id ?? UUID())))
             ORDER BY b.created_at, b.user_id
             LIMIT \(limit + 1)
            """, logger: logger)
        var found: [(PostingBlock, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            found.append((try block(r), try r["created_micros"].decode(Int64.self)))
        }
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.user.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// Blocks the user when the scope reaches them: the chain's admin any account but an admin's,
    /// everywhere; a manager an author of content at their store, there only. nil: not found
    /// within the scope.
    package static func block(
        _ user: UserID, reason: String, by moderator: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> PostingBlock? {
        let rows = try await client.run(
            """
            WITH target AS (
                SELECT u.id FROM users u
                 WHERE u.id = \(user.rawValue) AND u.role <> 'admin'
                   AND (\(scope.store?.rawValue)::uuid IS NULL
                        OR EXISTS (SELECT 1 FROM community_content c WHERE c.author_id = u.id AND c.store_id = \(scope.store?.rawValue)))),
            made AS (
                INSERT INTO posting_blocks (user_id, store_id, blocked_by, reason)
                SELECT t.id, \(scope.store?.rawValue), \(moderator.rawValue), \(reason) FROM target t
                ON CONFLICT (user_id, coalesce(store_id, '00000000-0000-0000-0000-000000000000'::uuid)) DO NOTHING RETURNING *)
            SELECT \(unescaped: blockColumns)
              FROM (SELECT * FROM made UNION ALL SELECT p.* FROM posting_blocks p JOIN target t ON t.id = p.user_id
                     WHERE NOT EXISTS (SELECT 1 FROM made) AND p.store_id IS NOT DISTINCT FROM \(scope.store?.rawValue)::uuid) b
              JOIN users u ON u.id = b.user_id
            """, logger: logger)
        return try rows.collect().first.map { try block($0.makeRandomAccess()) }
    }

    package static func unblock(_ user: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            "DELETE FROM posting_blocks b WHERE b.user_id = \(user.rawValue) AND \(scope, column: "b.store_id") RETURNING b.user_id",
            logger: logger)
        return !rows.collect().isEmpty
    }

    private static func report(_ r: PostgresRandomAccessRow) throws -> ContentReport {
        ContentReport(
            id: ReportID(try r["id"].decode(UUID.self)), kind: try r["kind"].stored(ContentKind.self),
            contentID: try r["content_id"].decode(UUID.self), store: try r["store_id"].decode(UUID?.self).map(StoreID.init),
            reason: try r["reason"].decode(String.self), excerpt: try r["excerpt"].decode(String.self),
            author: Author(id: try r["author_id"].decode(UUID?.self).map(UserID.init), name: try r["author_name"].decode(String.self)),
            hidden: try r["hidden"].decode(Bool.self), createdAt: try r["created_at"].decode(Date.self),
            resolvedAt: try r["resolved_at"].decode(Date?.self))
    }

    private static func block(_ r: PostgresRandomAccessRow) throws -> PostingBlock {
        PostingBlock(
            user: UserID(try r["user_id"].decode(UUID.self)), name: try r["name"].decode(String.self),
            store: try r["store_id"].decode(UUID?.self).map(StoreID.init), reason: try r["reason"].decode(String.self),
            createdAt: try r["created_at"].decode(Date.self))
    }
}
