import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.products`: the store's orders placed in the range over
/// `orders_store_created` (migration 052), their lines by the lines' primary key, and the stock
/// of the store's range with each product's latest ledger movement (`stock_movements_product`).
extension ReportQueries {
    /// Per product for the orders not cancelled and for the cancelled ones, in one statement: the
    /// store's days of the range in `report_product_days` (migration 061: what each product's
    /// lines of the orders placed that day hold now, kept by triggers as lines and orders change,
    /// a few hundred rows a day), summed per product, the top of each kind by units with the
    /// kind's totals over every product (window sums); the orders, and the out-of-stock hours, in
    /// other statements, concurrently. A day there is a day of the store's zone, the zone the
    /// report is drawn in (`report_zone`, the same as `store(_:in:on:logger:)`'s; a new zone
    /// recounts the store), so the days' rows are exactly the range's orders.
    package static func products(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, now: Date, on client: PostgresClient,
        logger: Logger
    ) async throws -> ProductReport {
        async let orders = placedOrders(of: store, in: scope, range: range, zone: zone, on: client, logger: logger)
        async let hours = outOfStockHours(of: store, in: scope, range: range, zone: zone, now: now, on: client, logger: logger)
        let rows = try await client.read(
            """
            WITH counted AS (
                SELECT d.uncollected, d.product_id, sum(d.lines) AS lines, sum(d.units) AS units, sum(d.amount) AS amount
                FROM report_product_days d
                WHERE d.store_id = \(store.rawValue) AND \(scope, column: "d.store_id")
                  AND d.day >= \(range.from.description)::date AND d.day <= \(range.to.description)::date
                GROUP BY d.uncollected, d.product_id
                HAVING sum(d.lines) > 0
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
        let (outCount, outHours) = try await hours
        return ProductReport(
            store: store, range: range, zone: zone, currency: currency, now: now, sold: sold, bestSellers: best, uncollected: uncollected,
            neverCollected: never, outOfStockCount: count, outOfStock: out, outOfStockHoursCount: outCount, outOfStockHours: outHours)
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

    /// The store's products (not discontinued) that had nothing available in the range, with how
    /// long: their outages (`stock_outages`, migration 061, opened and closed by a trigger on the
    /// stock row as what is available crosses zero) cut to the range's instants and to `now` (an
    /// outage still open runs to it), summed per product, the longest first; the count of all of
    /// them on every row. Read by the outages' start (`stock_outages_store_began`): those that
    /// began before the range ends, kept when they end after it starts.
    private static func outOfStockHours(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, now: Date, on client: PostgresClient,
        logger: Logger
    ) async throws -> (Int, [ProductReport.OutOfStockHours]) {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       least((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier), \(now)::timestamptz) AS after
            ), cut AS (
                SELECT o.product_id,
                       greatest(extract(epoch FROM least(coalesce(o.ended_at, b.after), b.after) - greatest(o.began_at, b.first)), 0)::float8
                           AS seconds
                FROM stock_outages o CROSS JOIN bounds b
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.began_at < (SELECT after FROM bounds) AND (o.ended_at IS NULL OR o.ended_at > (SELECT first FROM bounds))
            ), summed AS (
                SELECT product_id, count(*)::int8 AS outages, sum(seconds) AS seconds FROM cut GROUP BY product_id HAVING sum(seconds) > 0
            )
            SELECT s.product_id, p.name, s.outages, s.seconds, count(*) OVER ()::int8 AS total
            FROM summed s JOIN products p ON p.id = s.product_id AND NOT p.discontinued
            ORDER BY s.seconds DESC, lower(p.name), s.product_id
            LIMIT \(ProductReport.maximumOutOfStock)
            """, logger: logger)
        var total = 0
        var products: [ProductReport.OutOfStockHours] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            total = Int(try r["total"].decode(Int64.self))
            products.append(
                ProductReport.OutOfStockHours(
                    product: ProductID(try r["product_id"].decode(UUID.self)), name: try r["name"].decode(String.self),
                    outages: Int(try r["outages"].decode(Int64.self)), seconds: try r["seconds"].decode(Double.self)))
        }
        return (total, products)
    }
}
