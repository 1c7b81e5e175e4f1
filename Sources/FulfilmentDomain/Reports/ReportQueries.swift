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
    /// one statement (GROUPING SETS); days and hours without orders are filled in here.
    package static func sales(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, on client: PostgresClient,
        logger: Logger
    ) async throws -> SalesReport {
        let rows = try await client.read(
            """
            WITH placed AS (
                SELECT (o.created_at AT TIME ZONE \(zone.identifier)) AS local, o.status, o.total_amount
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.created_at >= (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier))
                  AND o.created_at < ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier))
            ), parts AS (
                SELECT local::date AS day, extract(hour FROM local)::int AS hour, status, total_amount FROM placed
            )
            SELECT to_char(day, 'YYYY-MM-DD') AS day, hour, GROUPING(day, hour) AS level,
                   count(*) FILTER (WHERE status <> 'cancelled') AS orders,
                   coalesce(sum(total_amount) FILTER (WHERE status <> 'cancelled'), 0)::int8 AS sales,
                   count(*) FILTER (WHERE status = 'cancelled') AS cancelled
            FROM parts
            GROUP BY GROUPING SETS ((day), (hour), ())
            """, logger: logger)
        var total = SalesReport.Bucket()
        var byDay: [ReportRange.Day: SalesReport.Bucket] = [:]
        var hours = Array(repeating: SalesReport.Bucket(), count: 24)
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = SalesReport.Bucket(
                orders: Int(try r["orders"].decode(Int64.self)), sales: try r["sales"].decode(Int64.self),
                cancelled: Int(try r["cancelled"].decode(Int64.self)))
            switch try r["level"].decode(Int32.self) {
            case 0b01:
                if let text = try r["day"].decode(String?.self), let day = ReportRange.Day(text) { byDay[day] = bucket }
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
