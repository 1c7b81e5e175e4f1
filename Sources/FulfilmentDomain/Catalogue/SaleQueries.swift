import Foundation
import Logging
import PostgresNIO

/// The SQL of sales (`store_sales`, migration 030), every statement bound to the caller's store.
/// `store_price` (`sql/routines/`) is what applies a running sale to what is shown and charged.
package enum SaleQueries {
    /// The columns ``sale(_:)`` reads, for a query over `store_sales s JOIN products p`.
    package static let columns = """
        s.id, s.store_id, s.product_id, p.name AS product_name, s.price_amount, p.currency::text AS currency,
        store_regular_price(s.product_id, s.store_id) AS regular_amount, s.starts_at, s.ends_at,
        CASE WHEN s.ends_at <= now() THEN 'ended' WHEN s.starts_at > now() THEN 'upcoming' ELSE 'running' END AS state,
        s.ended_by IS NOT NULL AS ended_early
        """

    /// The store's sales in `state` (nil: running and upcoming), by start then id.
    package static func list(
        _ state: Sale.State?, in scope: StoreScope, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<Sale> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns), (extract(epoch FROM s.starts_at) * 1000000)::int8 AS starts_micros
            FROM store_sales s JOIN products p ON p.id = s.product_id
            WHERE s.store_id = \(scope)
              AND CASE \(state?.rawValue)::text
                      WHEN 'running' THEN s.starts_at <= now() AND now() < s.ends_at
                      WHEN 'upcoming' THEN s.starts_at > now()
                      WHEN 'ended' THEN s.ends_at <= now()
                      ELSE now() < s.ends_at
                  END
              AND (\(after == nil) OR ((extract(epoch FROM s.starts_at) * 1000000)::int8, s.id) > (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY s.starts_at, s.id
            LIMIT \(limit + 1)
            """, logger: logger)
        var result: [(Sale, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append((try sale(r), try r["starts_micros"].decode(Int64.self)))
        }
        let page = Array(result.prefix(limit))
        let next = result.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// What the create statement found, and the sale when it was written.
    package struct Created: Sendable {
        package var discontinued: Bool
        package var carried: Bool
        package var currency: String
        package var regular: Int64
        package var sale: Sale?
    }

    /// Writes the sale in one statement when the product is on sale, carried by the caller's
    /// store, in `draft`'s currency and priced below its regular price there; answers what it
    /// found either way (nil: no such product), so the caller says why a sale was not written.
    /// An overlapping sale is the exclusion constraint's 23P01 (`SaleError.overlaps`).
    package static func create(
        _ draft: Sale.Draft, by user: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> Created? {
        let rows = try await SaleError.mappingDatabaseErrors {
            try await client.run(
                """
                WITH p AS (
                    SELECT p.id, p.name, p.currency::text AS currency, p.discontinued,
                           EXISTS (SELECT 1 FROM stock st WHERE st.store_id = \(scope) AND st.product_id = p.id) AS carried,
                           store_regular_price(p.id, \(scope)) AS regular
                      FROM products p WHERE p.id = \(draft.product.rawValue)),
                made AS (
                    INSERT INTO store_sales AS s (store_id, product_id, price_amount, starts_at, ends_at, created_by)
                    SELECT \(scope), p.id, \(draft.price.amount), \(draft.startsAt), \(draft.endsAt), \(user.rawValue) FROM p
                     WHERE NOT p.discontinued AND p.carried AND p.currency = \(draft.price.currency) AND \(draft.price.amount) < p.regular
                    RETURNING s.*)
                SELECT p.discontinued, p.carried, p.currency AS product_currency, p.regular, \(unescaped: columns)
                  FROM p LEFT JOIN made s ON true
                """, logger: logger
            ).collect()
        }
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        let written = try row["id"].decode(UUID?.self) != nil
        return Created(
            discontinued: try row["discontinued"].decode(Bool.self), carried: try row["carried"].decode(Bool.self),
            currency: try row["product_currency"].decode(String.self), regular: try row["regular"].decode(Int64.self),
            sale: written ? try sale(row) : nil)
    }

    /// How ending a sale went.
    package enum Ending: Sendable {
        /// It ran and now has ended, or (upcoming) was withdrawn: the sale as it now stands.
        case done(Sale)
        case alreadyEnded
    }

    /// Ends the caller's store's sale now in one statement: a running one's end becomes now; an
    /// upcoming one is removed (it never ran); one already over is left as it is. Nil when the
    /// store has no such sale. Two managers ending it at once: the second waits for the first's
    /// row lock and then finds it ended.
    package static func end(_ sale: SaleID, by user: UserID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Ending?
    {
        let rows = try await client.run(
            """
            WITH found AS (SELECT * FROM store_sales WHERE id = \(sale.rawValue) AND store_id = \(scope) FOR UPDATE),
            ended AS (
                UPDATE store_sales t SET ends_at = now(), ended_by = \(user.rawValue) FROM found f
                 WHERE t.id = f.id AND f.starts_at < now() AND now() < f.ends_at
                RETURNING t.id, t.ends_at),
            withdrawn AS (DELETE FROM store_sales t USING found f WHERE t.id = f.id AND f.starts_at >= now() RETURNING t.id)
            SELECT s.id, s.store_id, s.product_id, p.name AS product_name, s.price_amount, p.currency::text AS currency,
                   store_regular_price(s.product_id, s.store_id) AS regular_amount, s.starts_at, coalesce(e.ends_at, s.ends_at) AS ends_at,
                   CASE WHEN e.id IS NOT NULL THEN 'ended' WHEN w.id IS NOT NULL THEN 'withdrawn' END AS state,
                   e.id IS NOT NULL OR s.ended_by IS NOT NULL AS ended_early
              FROM found s JOIN products p ON p.id = s.product_id
              LEFT JOIN ended e ON true LEFT JOIN withdrawn w ON true
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            guard try r["state"].decode(String?.self) != nil else { return .alreadyEnded }
            return .done(try self.sale(r))
        }
        return nil
    }

    /// A sale from a row of ``columns``.
    package static func sale(_ r: PostgresRandomAccessRow) throws -> Sale {
        let currency = try r["currency"].decode(String.self)
        return Sale(
            id: SaleID(try r["id"].decode(UUID.self)), store: StoreID(try r["store_id"].decode(UUID.self)),
            product: ProductID(try r["product_id"].decode(UUID.self)), productName: try r["product_name"].decode(String.self),
            price: Money(amount: try r["price_amount"].decode(Int64.self), currency: currency),
            regularPrice: Money(amount: try r["regular_amount"].decode(Int64.self), currency: currency),
            startsAt: try r["starts_at"].decode(Date.self), endsAt: try r["ends_at"].decode(Date.self),
            state: try r["state"].stored(Sale.State.self), endedEarly: try r["ended_early"].decode(Bool.self))
    }
}
