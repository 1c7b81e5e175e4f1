import Foundation
import Logging
import PostgresNIO

/// The SQL of reviews (`product_reviews`, `review_votes`, migration 038). The product's rating
/// follows its visible reviews by trigger (`product_reviews_rating`).
package enum ReviewQueries {
    /// The columns ``review(_:)`` reads, over reviews `v LEFT JOIN users u` (the author).
    package static let columns = """
        v.id, v.product_id, v.store_id, v.author_id, coalesce(u.name, 'A former customer') AS author_name, v.rating, v.body_markdown,
        v.helpful_count, v.hidden_at IS NOT NULL AS hidden, v.created_at, v.updated_at
        """

    /// The keyset: newest (negated microseconds) or most helpful (negated count), then id.
    package struct Cursor: Codable {
        package var o: String
        package var k: Int64
        package var id: UUID
    }

    /// nil: no such product.
    package static func list(
        of product: ProductID, order: Review.Order, viewer: Viewer, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<Review>? {
        let after = try PageCursor.decode(cursor, as: Cursor.self)
        if let after, after.o != order.rawValue { throw CatalogueError.invalidCursor }
        let rows = try await client.read(
            """
            WITH product AS (SELECT p.id FROM products p WHERE p.id = \(product.rawValue)),
            found AS (
                SELECT v.*, CASE WHEN \(order.rawValue) = 'helpful' THEN -v.helpful_count::int8
                                 ELSE -(extract(epoch FROM v.created_at) * 1000000)::int8 END AS k
                  FROM product_reviews v
                 WHERE v.product_id = \(product.rawValue)
                   AND content_visible(v.hidden_at, v.author_id, v.store_id, \(viewer: viewer)))
            SELECT true AS product_row, NULL::uuid AS id, NULL::uuid AS product_id, NULL::uuid AS store_id, NULL::uuid AS author_id,
                   NULL::text AS author_name, NULL::int2 AS rating, NULL::text AS body_markdown, NULL::int4 AS helpful_count,
                   NULL::bool AS hidden, NULL::timestamptz AS created_at, NULL::timestamptz AS updated_at, NULL::int8 AS k
              FROM product
            UNION ALL
            (SELECT false, \(unescaped: columns), v.k
               FROM found v LEFT JOIN users u ON u.id = v.author_id
              WHERE \(after == nil) OR (v.k, v.id) > (\(after?.k ?? 0), \(after?.id ?? UUID()))
              ORDER BY v.k, v.id
              LIMIT \(limit + 1))
            """, logger: logger)
        var exists = false
        var found: [(Review, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            // The UNION's columns are named by its first part: the product's row.
            if try r["product_row"].decode(Bool.self) {
                exists = true
                continue
            }
            found.append((try review(r), try r["k"].decode(Int64.self)))
        }
        guard exists else { return nil }
        found.sort { ($0.1, $0.0.id.description) < ($1.1, $1.0.id.description) }
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { PageCursor.encode(Cursor(o: order.rawValue, k: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    package enum Eligibility: Sendable {
        case allowed
        case productNotFound
        case notPurchased
    }

    /// Whether the customer may review the product: it exists, and an order of theirs that was
    /// collected holds it (`collected_order_with`).
    package static func eligibility(of product: ProductID, for customer: UserID, on connection: PostgresConnection, logger: Logger) async throws
        -> Eligibility
    {
        let rows = try await connection.run(
            """
            SELECT EXISTS (SELECT 1 FROM products p WHERE p.id = \(product.rawValue)) AS product_exists,
                   EXISTS (SELECT 1 FROM collected_order_with(\(customer.rawValue), \(product.rawValue))) AS bought
            """, logger: logger)
        let r = rows.collect()[0].makeRandomAccess()
        if try !r["product_exists"].decode(Bool.self) { return .productNotFound }
        return try r["bought"].decode(Bool.self) ? .allowed : .notPurchased
    }

    /// Upserts the review from the customer's latest collected order with the product.
    package static func write(
        rating: Int, body: String, of product: ProductID, by customer: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> (Review, created: Bool)? {
        let rows = try await connection.run(
            """
            WITH source AS (SELECT c.id, c.store_id FROM collected_order_with(\(customer.rawValue), \(product.rawValue)) c),
            v AS (
                INSERT INTO product_reviews AS v (product_id, store_id, order_id, author_id, rating, body_markdown)
                SELECT \(product.rawValue), s.store_id, s.id, \(customer.rawValue), \(Int16(rating)), \(body) FROM source s
                ON CONFLICT (product_id, author_id) DO UPDATE
                    SET rating = EXCLUDED.rating, body_markdown = EXCLUDED.body_markdown, updated_at = now()
                RETURNING v.*, xmax = 0 AS created)
            SELECT \(unescaped: columns), v.created AS created FROM v LEFT JOIN users u ON u.id = v.author_id
            """, logger: logger)
        guard let row = rows.collect().first else { return nil }
        let r = row.makeRandomAccess()
        return (try review(r), try r["created"].decode(Bool.self))
    }

    package static func delete(of product: ProductID, by customer: UserID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            DELETE FROM product_reviews WHERE product_id = \(product.rawValue) AND author_id = \(customer.rawValue) RETURNING id
            """, logger: logger)
        return !rows.collect().isEmpty
    }

    package enum Vote: Sendable {
        case counted(Review)
        case own
        case notFound
    }

    package static func markHelpful(_ id: ReviewID, by viewer: Viewer, on connection: PostgresConnection, logger: Logger) async throws -> Vote {
        let found = try await connection.run(
            """
            SELECT v.author_id = \(viewer.user?.rawValue) FROM product_reviews v
             WHERE v.id = \(id.rawValue) AND content_visible(v.hidden_at, v.author_id, v.store_id, \(viewer: viewer))
             FOR UPDATE
            """, logger: logger)
        guard let row = found.collect().first else { return .notFound }
        if try row.decode(Bool?.self) == true { return .own }
        let rows = try await connection.run(
            """
            WITH vote AS (
                INSERT INTO review_votes (review_id, user_id) VALUES (\(id.rawValue), \(viewer.user?.rawValue))
                ON CONFLICT DO NOTHING RETURNING review_id),
            counted AS (
                UPDATE product_reviews SET helpful_count = helpful_count + 1 WHERE id IN (SELECT review_id FROM vote) RETURNING *)
            SELECT \(unescaped: columns)
              FROM (SELECT * FROM counted UNION ALL SELECT * FROM product_reviews WHERE id = \(id.rawValue) AND NOT EXISTS (SELECT 1 FROM counted)) v
              LEFT JOIN users u ON u.id = v.author_id
            """, logger: logger)
        return .counted(try review(rows.collect()[0].makeRandomAccess()))
    }

    /// A review from a row of ``columns``.
    private static func review(_ r: PostgresRandomAccessRow) throws -> Review {
        Review(
            id: ReviewID(try r["id"].decode(UUID.self)), product: ProductID(try r["product_id"].decode(UUID.self)),
            store: StoreID(try r["store_id"].decode(UUID.self)),
            author: Author(id: try r["author_id"].decode(UUID?.self).map(UserID.init), name: try r["author_name"].decode(String.self)),
            rating: Int(try r["rating"].decode(Int16.self)), bodyMarkdown: try r["body_markdown"].decode(String.self),
            helpfulCount: Int(try r["helpful_count"].decode(Int32.self)), hidden: try r["hidden"].decode(Bool.self),
            createdAt: try r["created_at"].decode(Date.self), updatedAt: try r["updated_at"].decode(Date.self))
    }
}
