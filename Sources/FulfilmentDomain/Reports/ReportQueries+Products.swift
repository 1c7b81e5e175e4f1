import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.products`: the store's orders placed in the range over
/// `orders_store_created` (migration 052), their lines by the lines' primary key, and the stock
/// of the store's range with each product's latest ledger movement (`stock_movements_product`).
extension ReportQueries {
    /// Per product and in all, for the orders not cancelled and for the cancelled ones, in one
    /// statement (GROUPING SETS, then the top of each kind by units); then what is out of stock.
    package static func products(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, now: Date, on client: PostgresClient,
        logger: Logger
    ) async throws -> ProductReport {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), placed AS (
                SELECT o.id, o.status
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds)
            ), held AS (
                SELECT o.id AS order_id, o.status = 'cancelled' AS uncollected, l.product_id, h.units, order_line_amount(l, h.units) AS amount
                FROM placed o
                JOIN order_lines l ON l.order_id = o.id
                CROSS JOIN LATERAL (SELECT held_quantity(l, o.status NOT IN ('pending', 'cancelled')) AS units) h
                WHERE h.units > 0
            ), counted AS (
                SELECT uncollected, product_id, GROUPING(product_id) AS level, count(DISTINCT order_id)::int8 AS orders,
                       count(*)::int8 AS lines, sum(units)::int8 AS units, sum(amount)::int8 AS amount,
                       count(DISTINCT product_id)::int8 AS products
                FROM held
                GROUP BY GROUPING SETS ((uncollected, product_id), (uncollected))
            ), ranked AS (
                SELECT c.*, p.name,
                       row_number() OVER (PARTITION BY c.uncollected, c.level ORDER BY c.units DESC, c.amount DESC, p.name, c.product_id) AS rank
                FROM counted c LEFT JOIN products p ON p.id = c.product_id
            )
            SELECT uncollected, product_id, name, level, orders, lines, units, amount, products
            FROM ranked
            WHERE level = 1 OR rank <= \(ProductReport.topProducts)
            ORDER BY uncollected, level DESC, rank
            """, logger: logger)
        var sold = ProductReport.Totals()
        var uncollected = ProductReport.Totals()
        var best: [ProductReport.Line] = []
        var never: [ProductReport.Line] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let cancelled = try r["uncollected"].decode(Bool.self)
            if try r["level"].decode(Int32.self) == 1 {
                let totals = ProductReport.Totals(
                    orders: Int(try r["orders"].decode(Int64.self)), lines: Int(try r["lines"].decode(Int64.self)),
                    units: Int(try r["units"].decode(Int64.self)), amount: try r["amount"].decode(Int64.self),
                    products: Int(try r["products"].decode(Int64.self)))
                if cancelled { uncollected = totals } else { sold = totals }
            } else if let product = try r["product_id"].decode(UUID?.self) {
                let line = ProductReport.Line(
                    product: ProductID(product), name: try r["name"].decode(String?.self) ?? "", lines: Int(try r["lines"].decode(Int64.self)),
                    units: Int(try r["units"].decode(Int64.self)), amount: try r["amount"].decode(Int64.self))
                if cancelled { never.append(line) } else { best.append(line) }
            }
        }
        let (count, out) = try await outOfStock(of: store, in: scope, on: client, logger: logger)
        return ProductReport(
            store: store, range: range, zone: zone, currency: currency, now: now, sold: sold, bestSellers: best, uncollected: uncollected,
            neverCollected: never, outOfStockCount: count, outOfStock: out)
    }

    /// The store's products (not discontinued) with nothing available now (on hand less what open
    /// orders hold), each with its latest ledger movement's time when that movement left on hand
    /// at zero and on hand is zero still; the count of all of them on every row.
    private static func outOfStock(
        of store: StoreID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> (Int, [ProductReport.OutOfStock]) {
        let rows = try await client.read(
            """
            SELECT s.product_id, p.name, s.on_hand, s.reserved,
                   CASE WHEN s.on_hand = 0 AND m.on_hand_after = 0 THEN m.at END AS since, count(*) OVER ()::int8 AS total
            FROM stock s
            JOIN products p ON p.id = s.product_id AND NOT p.discontinued
            LEFT JOIN LATERAL (
                SELECT sm.at, sm.on_hand_after FROM stock_movements sm
                WHERE sm.store_id = s.store_id AND sm.product_id = s.product_id
                ORDER BY sm.id DESC LIMIT 1
            ) m ON true
            WHERE s.store_id = \(store.rawValue) AND \(scope, column: "s.store_id") AND s.on_hand - s.reserved <= 0
            ORDER BY since NULLS LAST, lower(p.name), s.product_id
            LIMIT \(ProductReport.maximumOutOfStock)
            """, logger: logger)
        var total = 0
        var products: [ProductReport.OutOfStock] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            total = Int(try r["total"].decode(Int64.self))
            products.append(
                ProductReport.OutOfStock(
                    product: ProductID(try r["product_id"].decode(UUID.self)), name: try r["name"].decode(String.self),
                    onHand: Int(try r["on_hand"].decode(Int32.self)), reserved: Int(try r["reserved"].decode(Int32.self)),
                    since: try r["since"].decode(Date?.self)))
        }
        return (total, products)
    }
}
