import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.products`: the store's orders placed in the range over
/// `orders_store_created` (migration 052), their lines by the lines' primary key, and the stock
/// of the store's range with each product's latest ledger movement (`stock_movements_product`).
extension ReportQueries {
    /// Per product for the orders not cancelled and for the cancelled ones, in one statement: the
    /// lines of the range's orders (by the lines' primary key) counted per product (a hash of a
    /// few hundred groups, never a sort of a year of lines), the top of each kind by units with
    /// the kind's totals over every product (window sums); the orders in a second, concurrently.
    /// A line's amount is `order_line_amount`'s: all it ordered held, its price less its whole
    /// coupon share (that function's identity, written out so a year's lines do not each call
    /// it); otherwise the function.
    package static func products(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, now: Date, on client: PostgresClient,
        logger: Logger
    ) async throws -> ProductReport {
        async let orders = placedOrders(of: store, in: scope, range: range, zone: zone, on: client, logger: logger)
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), held AS (
                SELECT o.status = 'cancelled' AS uncollected, l.product_id, h.units,
                       CASE WHEN h.units = l.quantity THEN l.unit_price * l.quantity - l.discount_amount
                            ELSE order_line_amount(l, h.units) END AS amount
                FROM orders o
                JOIN order_lines l ON l.order_id = o.id
                CROSS JOIN LATERAL (SELECT held_quantity(l, o.status NOT IN ('pending', 'cancelled')) AS units) h
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds) AND h.units > 0
            ), counted AS (
                SELECT uncollected, product_id, count(*) AS lines, sum(units) AS units, sum(amount) AS amount
                FROM held
                GROUP BY uncollected, product_id
            ), ranked AS (
                SELECT c.*, p.name,
                       row_number() OVER (PARTITION BY c.uncollected ORDER BY c.units DESC, c.amount DESC, p.name, c.product_id) AS rank,
                       count(*) OVER kind AS products, sum(c.lines) OVER kind AS all_lines, sum(c.units) OVER kind AS all_units,
                       sum(c.amount) OVER kind AS all_amount
                FROM counted c LEFT JOIN products p ON p.id = c.product_id
                WINDOW kind AS (PARTITION BY c.uncollected)
            )
            SELECT uncollected, product_id, name, lines::int8, units::int8, amount::int8, products::int8, all_lines::int8,
                   all_units::int8, all_amount::int8
            FROM ranked
            WHERE rank <= \(ProductReport.topProducts)
            ORDER BY uncollected, rank
            """, logger: logger)
        var sold = ProductReport.Totals()
        var uncollected = ProductReport.Totals()
        var best: [ProductReport.Line] = []
        var never: [ProductReport.Line] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let cancelled = try r["uncollected"].decode(Bool.self)
            let totals = ProductReport.Totals(
                lines: Int(try r["all_lines"].decode(Int64.self)), units: Int(try r["all_units"].decode(Int64.self)),
                amount: try r["all_amount"].decode(Int64.self), products: Int(try r["products"].decode(Int64.self)))
            let line = ProductReport.Line(
                product: ProductID(try r["product_id"].decode(UUID.self)), name: try r["name"].decode(String?.self) ?? "",
                lines: Int(try r["lines"].decode(Int64.self)), units: Int(try r["units"].decode(Int64.self)),
                amount: try r["amount"].decode(Int64.self))
            if cancelled {
                uncollected = totals
                never.append(line)
            } else {
                sold = totals
                best.append(line)
            }
        }
        let placed = try await orders
        sold.orders = placed.sold
        uncollected.orders = placed.cancelled
        let (count, out) = try await outOfStock(of: store, in: scope, on: client, logger: logger)
        return ProductReport(
            store: store, range: range, zone: zone, currency: currency, now: now, sold: sold, bestSellers: best, uncollected: uncollected,
            neverCollected: never, outOfStockCount: count, outOfStock: out)
    }

    /// The orders placed in the range, not cancelled and cancelled (over `orders_store_created`
    /// alone, as the sales report counts them).
    private static func placedOrders(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> (sold: Int, cancelled: Int) {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            )
            SELECT count(*) FILTER (WHERE o.status <> 'cancelled')::int8, count(*) FILTER (WHERE o.status = 'cancelled')::int8
            FROM orders o
            WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
              AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds)
            """, logger: logger)
        for try await (sold, cancelled) in rows.decode((Int64, Int64).self) { return (Int(sold), Int(cancelled)) }
        return (0, 0)
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
