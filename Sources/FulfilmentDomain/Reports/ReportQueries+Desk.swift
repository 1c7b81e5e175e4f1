import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.desk`: a store's orders by when the customer said "I'm here", over one
/// index range (`orders_store_arrival_report`, migration 055, carrying the hand-over time so the
/// rows are not read). `arrived_at` is the first `customer_arrived` of the order's history, and
/// `completed_at` its `completed`, both stamped on the order in the same transaction as the
/// history's row (`record_arrival`, `collect_order`).
extension ReportQueries {
    /// Arrivals and waits per hour of the day the customer arrived (the store's clock) and over
    /// the range, in one statement: the percentiles of each hour and of the whole by GROUPING SETS.
    package static func desk(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> DeskReport {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), arrivals AS (
                SELECT extract(hour FROM o.arrived_at AT TIME ZONE \(zone.identifier))::int AS hour,
                       extract(epoch FROM o.completed_at - o.arrived_at)::float8 / 60 AS wait
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id") AND o.arrived_at IS NOT NULL
                  AND o.arrived_at >= (SELECT first FROM bounds) AND o.arrived_at < (SELECT after FROM bounds)
            )
            SELECT hour, GROUPING(hour) AS level, count(*)::int8 AS arrived, count(wait)::int8 AS handed_over,
                   percentile_cont(ARRAY[0.5, 0.9]::float8[]) WITHIN GROUP (ORDER BY wait) AS wait
            FROM arrivals
            GROUP BY GROUPING SETS ((hour), ())
            """, logger: logger)
        var total = DeskReport.Bucket()
        var hours = Array(repeating: DeskReport.Bucket(), count: 24)
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = DeskReport.Bucket(
                arrived: Int(try r["arrived"].decode(Int64.self)),
                wait: MinutePercentiles(count: Int(try r["handed_over"].decode(Int64.self)), minutes: try r["wait"].decode([Double]?.self)))
            if try r["level"].decode(Int32.self) == 0 {
                if let hour = try r["hour"].decode(Int32?.self), (0..<24).contains(hour) { hours[Int(hour)] = bucket }
            } else {
                total = bucket
            }
        }
        return DeskReport(store: store, range: range, zone: zone, total: total, hours: hours)
    }
}
