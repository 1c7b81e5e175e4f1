import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.picking`: a store's pick lists by when they were completed, with when
/// each was made and its lines and short lines (counted when it was completed, migration 061),
/// over one index range (`pick_lists_store_completed_counts`), and the substitutes on its orders
/// by the partial `order_lines_substitutes`.
extension ReportQueries {
    /// Lists, lines, short lines and the lists' minutes per day (the store's days) and over the
    /// range, with the median of the lists' own lines per hour, in one statement (GROUPING SETS).
    /// Each list's lines (an order's product picked, once or more) and those short are kept on the
    /// list when it is completed (`pick_list_counts`): counting a year's picks per list at every
    /// report took seconds at a million orders; then the substitutes given on the lists' orders,
    /// in all and per product substituted.
    package static func picking(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> PickingReport {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), per_list AS (
                SELECT (l.completed_at AT TIME ZONE \(zone.identifier))::date AS day,
                       greatest(extract(epoch FROM l.completed_at - l.created_at)::float8 / 60, 0) AS minutes,
                       coalesce(l.lines, 0) AS lines, coalesce(l.short_lines, 0) AS short
                FROM pick_lists l
                WHERE l.store_id = \(store.rawValue) AND \(scope, column: "l.store_id") AND l.status = 'completed'
                  AND l.completed_at >= (SELECT first FROM bounds) AND l.completed_at < (SELECT after FROM bounds)
            )
            SELECT to_char(day, 'YYYY-MM-DD') AS day, GROUPING(day) AS level, count(*)::int8 AS lists,
                   coalesce(sum(lines), 0)::int8 AS lines, coalesce(sum(short), 0)::int8 AS short,
                   coalesce(sum(minutes), 0)::float8 AS minutes,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN minutes > 0 THEN lines * 60 / minutes END) AS median_rate
            FROM per_list
            GROUP BY GROUPING SETS ((day), ())
            """, logger: logger)
        var total = PickingReport.Bucket()
        var median: Double?
        var byDay: [LocalDate: PickingReport.Bucket] = [:]
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = PickingReport.Bucket(
                pickLists: Int(try r["lists"].decode(Int64.self)), lines: Int(try r["lines"].decode(Int64.self)),
                short: Int(try r["short"].decode(Int64.self)), minutes: try r["minutes"].decode(Double.self))
            if try r["level"].decode(Int32.self) == 0 {
                if let text = try r["day"].decode(String?.self), let day = LocalDate(text) { byDay[day] = bucket }
            } else {
                total = bucket
                median = try r["median_rate"].decode(Double?.self).map { $0.isFinite ? ($0 * 10).rounded() / 10 : 0 }
            }
        }
        let (substitutions, products) = try await substitutions(
            of: store, in: scope, range: range, zone: zone, on: client, logger: logger)
        return PickingReport(
            store: store, range: range, zone: zone, total: total, medianListLinesPerHour: median,
            days: range.days.map { ($0, byDay[$0] ?? PickingReport.Bucket()) }, substitutions: substitutions,
            mostSubstituted: products)
    }

    /// The substitutes given on the orders of the lists completed in the range: in all (the row
    /// of level 1, first) and per product they stood in for, the most substituted first. Read from
    /// the store's substitutes (`order_lines_substitutes`, few), each kept when its order is on a
    /// list of the range (`pick_list_orders_order`, one lookup each: a LATERAL with LIMIT, which
    /// the planner does not turn round): from the lists' side, a year's 900,000 listed orders
    /// were hashed to find 10,000 substitutes.
    private static func substitutions(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> (PickingReport.Substitutions, [PickingReport.SubstitutedProduct]) {
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), counted AS (
                SELECT s.substitute_for, GROUPING(s.substitute_for) AS level, count(*)::int8 AS proposed,
                       count(*) FILTER (WHERE s.substitution_status = 'accepted')::int8 AS accepted,
                       count(*) FILTER (WHERE s.substitution_status = 'rejected')::int8 AS refused
                FROM order_lines s
                CROSS JOIN LATERAL (
                    SELECT 1 FROM pick_list_orders o JOIN pick_lists l ON l.id = o.pick_list_id
                    WHERE o.order_id = s.order_id AND l.store_id = \(store.rawValue) AND \(scope, column: "l.store_id")
                      AND l.status = 'completed'
                      AND l.completed_at >= (SELECT first FROM bounds) AND l.completed_at < (SELECT after FROM bounds)
                    LIMIT 1
                ) listed
                WHERE s.store_id = \(store.rawValue) AND s.substitution_id IS NOT NULL
                GROUP BY GROUPING SETS ((s.substitute_for), ())
            )
            SELECT c.substitute_for AS product, p.name, c.level, c.proposed, c.accepted, c.refused
            FROM counted c LEFT JOIN products p ON p.id = c.substitute_for
            ORDER BY c.level DESC, c.proposed DESC, p.name, c.substitute_for
            LIMIT \(PickingReport.topProducts + 1)
            """, logger: logger)
        var total = PickingReport.Substitutions()
        var products: [PickingReport.SubstitutedProduct] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let counts = PickingReport.Substitutions(
                proposed: Int(try r["proposed"].decode(Int64.self)), accepted: Int(try r["accepted"].decode(Int64.self)),
                refused: Int(try r["refused"].decode(Int64.self)))
            if try r["level"].decode(Int32.self) == 1 {
                total = counts
            } else if let product = try r["product"].decode(UUID?.self) {
                products.append(
                    PickingReport.SubstitutedProduct(
                        product: ProductID(product), name: try r["name"].decode(String?.self) ?? "", substitutions: counts))
            }
        }
        return (total, products)
    }
}
