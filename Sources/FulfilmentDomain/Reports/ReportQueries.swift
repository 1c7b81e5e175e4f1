import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports`: every figure is counted by PostgreSQL over one index range of the
/// store's orders (`orders_store_created`, migration 052, which carries the status and total so
/// the rows themselves are not read).
package enum ReportQueries {
    /// The store's zone (its calendar's, else UTC) and currency, if the scope reaches it.
    package static func store(_ store: StoreID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws
        -> (zone: TimeZone, currency: String)?
    {
        let rows = try await client.read(
            """
            SELECT coalesce(c.time_zone, 'UTC'), s.currency::text
            FROM stores s LEFT JOIN store_calendars c ON c.store_id = s.id
            WHERE s.id = \(store.rawValue) AND \(scope, column: "s.id")
            """, logger: logger)
        for try await (zone, currency) in rows.decode((String, String).self) {
            return (TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!, currency)
        }
        return nil
    }

    /// Orders placed in `range` (the store's days in `zone`), per day, per hour and in all, in
    /// one statement: the orders are counted into the range's hours first (`date_bin` from the
    /// store's first midnight, so the bins are the store's hours, and a year is 8,784 groups a hash
    /// holds; sorting a year of orders by day spilled to disk), then the hours into days, hours of
    /// the day and the whole (GROUPING SETS). The range's two instants are computed once (the
    /// materialised `bounds`, read through sub-selects): written in the join, the text-to-date
    /// casts were evaluated for every one of a year's million orders, and the planner could not
    /// see the range to read it from the index. Days and hours without orders are filled in here.
    package static func sales(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, on client: PostgresClient,
        logger: Logger
    ) async throws -> SalesReport {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), hours AS (
                SELECT date_bin('1 hour', o.created_at, (SELECT first FROM bounds)) AS hour_start,
                       count(*) FILTER (WHERE o.status <> 'cancelled') AS orders,
                       coalesce(sum(o.total_amount) FILTER (WHERE o.status <> 'cancelled'), 0) AS sales,
                       count(*) FILTER (WHERE o.status = 'cancelled') AS cancelled
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds)
                GROUP BY 1
            ), parts AS (
                SELECT (hour_start AT TIME ZONE \(zone.identifier))::date AS day,
                       extract(hour FROM hour_start AT TIME ZONE \(zone.identifier))::int AS hour, orders, sales, cancelled
                FROM hours
            )
            SELECT to_char(day, 'YYYY-MM-DD') AS day, hour, GROUPING(day, hour) AS level,
                   coalesce(sum(orders), 0)::int8 AS orders, coalesce(sum(sales), 0)::int8 AS sales,
                   coalesce(sum(cancelled), 0)::int8 AS cancelled
            FROM parts
            GROUP BY GROUPING SETS ((day), (hour), ())
            """, logger: logger)
        var total = SalesReport.Bucket()
        var byDay: [LocalDate: SalesReport.Bucket] = [:]
        var hours = Array(repeating: SalesReport.Bucket(), count: 24)
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = SalesReport.Bucket(
                orders: Int(try r["orders"].decode(Int64.self)), sales: try r["sales"].decode(Int64.self),
                cancelled: Int(try r["cancelled"].decode(Int64.self)))
            switch try r["level"].decode(Int32.self) {
            case 0b01:
                if let text = try r["day"].decode(String?.self), let day = LocalDate(text) { byDay[day] = bucket }
            case 0b10:
                if let hour = try r["hour"].decode(Int32?.self), (0..<24).contains(hour) { hours[Int(hour)] = bucket }
            default:
                total = bucket
            }
        }
        return SalesReport(
            store: store, range: range, zone: zone, currency: currency, total: total,
            days: range.days.map { ($0, byDay[$0] ?? SalesReport.Bucket()) }, hours: hours)
    }
}
