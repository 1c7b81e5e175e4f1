import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.onTime`: a store's orders by the start of their pickup slot, over one
/// index range (`orders_store_slot_report`, migration 055, which carries the times and status so
/// the rows themselves are not read). An order's `packaged_at` and `completed_at` are the times
/// of its history's `packaged` and `completed` entries, stamped on the order in the same
/// transaction (`OrderQueries.move`, `collect_order`; an order reaches each status at most once),
/// so a year is read from the orders' index rather than a million lookups into `order_events`.
extension ReportQueries {
    /// On time and late per day and per hour of the slot's start, in one statement shaped as
    /// `sales`: counted into the range's hours by `date_bin`, then the hours into days, hours of
    /// the day and the whole. `now` decides whether an unpacked order's slot has begun.
    package static func onTime(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, now: Date, on client: PostgresClient, logger: Logger
    ) async throws -> OnTimeReport {
        // The durations' statement runs beside the counts' on a second connection of the pool.
        async let measured = onTimeDurations(of: store, in: scope, range: range, zone: zone, on: client, logger: logger)
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), hours AS (
                SELECT date_bin('1 hour', o.pickup_slot_start, (SELECT first FROM bounds)) AS hour_start,
                       count(*) FILTER (WHERE o.status <> 'cancelled' AND o.packaged_at <= o.pickup_slot_start) AS on_time,
                       count(*) FILTER (WHERE o.status <> 'cancelled' AND (o.packaged_at > o.pickup_slot_start
                                        OR (o.packaged_at IS NULL AND o.pickup_slot_start <= \(now)))) AS late,
                       count(*) FILTER (WHERE o.status <> 'cancelled' AND o.packaged_at IS NULL
                                        AND o.pickup_slot_start > \(now)) AS not_yet_due,
                       count(*) FILTER (WHERE o.status = 'cancelled') AS cancelled
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id")
                  AND o.pickup_slot_start >= (SELECT first FROM bounds) AND o.pickup_slot_start < (SELECT after FROM bounds)
                GROUP BY 1
            ), parts AS (
                SELECT (hour_start AT TIME ZONE \(zone.identifier))::date AS day,
                       extract(hour FROM hour_start AT TIME ZONE \(zone.identifier))::int AS hour, on_time, late, not_yet_due, cancelled
                FROM hours
            )
            SELECT to_char(day, 'YYYY-MM-DD') AS day, hour, GROUPING(day, hour) AS level,
                   coalesce(sum(on_time), 0)::int8 AS on_time, coalesce(sum(late), 0)::int8 AS late,
                   coalesce(sum(not_yet_due), 0)::int8 AS not_yet_due, coalesce(sum(cancelled), 0)::int8 AS cancelled
            FROM parts
            GROUP BY GROUPING SETS ((day), (hour), ())
            """, logger: logger)
        var total = OnTimeReport.Bucket()
        var byDay: [LocalDate: OnTimeReport.Bucket] = [:]
        var hours = Array(repeating: OnTimeReport.Bucket(), count: 24)
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = OnTimeReport.Bucket(
                onTime: Int(try r["on_time"].decode(Int64.self)), late: Int(try r["late"].decode(Int64.self)),
                notYetDue: Int(try r["not_yet_due"].decode(Int64.self)), cancelled: Int(try r["cancelled"].decode(Int64.self)))
            switch try r["level"].decode(Int32.self) {
            case 0b01:
                if let text = try r["day"].decode(String?.self), let day = LocalDate(text) { byDay[day] = bucket }
            case 0b10:
                if let hour = try r["hour"].decode(Int32?.self), (0..<24).contains(hour) { hours[Int(hour)] = bucket }
            default:
                total = bucket
            }
        }
        let durations = try await measured
        return OnTimeReport(
            store: store, range: range, zone: zone, total: total, days: range.days.map { ($0, byDay[$0] ?? OnTimeReport.Bucket()) },
            hours: hours, placedToReady: durations.placedToReady, readyToCollected: durations.readyToCollected)
    }

    /// Placed to packed and packed to handed over, p50 and p90 in minutes, over the same orders
    /// (not cancelled): a second statement, sent beside the first. Each duration is hashed into
    /// its tenth of a minute in one pass of the index (a grouping set per duration), and the
    /// percentiles are read from the two histograms (`MinutePercentiles(histogram:)`): sorting a
    /// year's durations, twice, was most of the report's 1.3 s at a million orders.
    private static func onTimeDurations(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> (placedToReady: MinutePercentiles, readyToCollected: MinutePercentiles) {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), durations AS (
                SELECT round(extract(epoch FROM o.packaged_at - o.created_at) / 6)::int8 AS placed_to_ready,
                       round(extract(epoch FROM o.completed_at - o.packaged_at) / 6)::int8 AS ready_to_collected
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id") AND o.status <> 'cancelled'
                  AND o.packaged_at IS NOT NULL
                  AND o.pickup_slot_start >= (SELECT first FROM bounds) AND o.pickup_slot_start < (SELECT after FROM bounds)
            )
            SELECT GROUPING(placed_to_ready, ready_to_collected) AS level,
                   coalesce(placed_to_ready, ready_to_collected) AS tenths, count(*)::int8 AS orders
            FROM durations
            GROUP BY GROUPING SETS ((placed_to_ready), (ready_to_collected))
            """, logger: logger)
        var placedToReady: [Int64: Int64] = [:]
        var readyToCollected: [Int64: Int64] = [:]
        for try await row in rows {
            let r = row.makeRandomAccess()
            // An order not yet handed over is the null group of the second set: not a duration.
            guard let tenths = try r["tenths"].decode(Int64?.self) else { continue }
            let orders = try r["orders"].decode(Int64.self)
            if try r["level"].decode(Int32.self) == 0b01 {
                placedToReady[tenths, default: 0] &+= orders
            } else {
                readyToCollected[tenths, default: 0] &+= orders
            }
        }
        return (MinutePercentiles(histogram: placedToReady), MinutePercentiles(histogram: readyToCollected))
    }
}
