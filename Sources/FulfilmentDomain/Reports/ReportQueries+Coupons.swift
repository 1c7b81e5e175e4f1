import Foundation
import Logging
import PostgresNIO

/// The SQL behind `Reports.coupons`: the store's orders placed in the range, all of them over
/// `orders_store_created` (migration 052) and those with a coupon over the partial
/// `orders_store_coupon_report` (migration 057), each read from the index alone.
extension ReportQueries {
    /// Every order of the range (not cancelled) in one figure and, at the same time on another
    /// connection (the two took 1.2 s and 0.2 s one after the other over a year of a million
    /// orders), the coupons' orders per coupon with the total of all coupons first (GROUPING
    /// SETS), the most redeemed after it.
    package static func coupons(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, currency: String, on client: PostgresClient,
        logger: Logger
    ) async throws -> CouponReport {
        async let every = everyOrder(of: store, in: scope, range: range, zone: zone, on: client, logger: logger)
        let rows = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            ), counted AS (
                SELECT o.coupon_id, GROUPING(o.coupon_id) AS level,
                       count(*) FILTER (WHERE o.status <> 'cancelled')::int8 AS orders,
                       coalesce(sum(o.total_amount) FILTER (WHERE o.status <> 'cancelled'), 0)::int8 AS sales,
                       coalesce(sum(o.discount_amount) FILTER (WHERE o.status <> 'cancelled'), 0)::int8 AS discount,
                       count(*) FILTER (WHERE o.status = 'cancelled')::int8 AS given_back,
                       count(DISTINCT o.coupon_id)::int8 AS coupons
                FROM orders o
                WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id") AND o.coupon_id IS NOT NULL
                  AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds)
                GROUP BY GROUPING SETS ((o.coupon_id), ())
            )
            SELECT c.coupon_id, k.code, k.store_id IS NULL AS chain_wide, c.level, c.orders, c.sales, c.discount, c.given_back, c.coupons
            FROM counted c LEFT JOIN coupons k ON k.id = c.coupon_id
            ORDER BY c.level DESC, c.orders DESC, c.given_back DESC, lower(k.code), c.coupon_id
            LIMIT \(CouponReport.maximumCoupons + 1)
            """, logger: logger)
        var withCoupon = CouponReport.Bucket()
        var givenBack = 0
        var count = 0
        var lines: [CouponReport.Line] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let bucket = CouponReport.Bucket(
                orders: Int(try r["orders"].decode(Int64.self)), sales: try r["sales"].decode(Int64.self),
                discount: try r["discount"].decode(Int64.self))
            let back = Int(try r["given_back"].decode(Int64.self))
            if try r["level"].decode(Int32.self) == 1 {
                withCoupon = bucket
                givenBack = back
                count = Int(try r["coupons"].decode(Int64.self))
            } else if let coupon = try r["coupon_id"].decode(UUID?.self) {
                lines.append(
                    CouponReport.Line(
                        coupon: CouponID(coupon), code: try r["code"].decode(String?.self) ?? "",
                        chainWide: try r["chain_wide"].decode(Bool.self), redeemed: bucket, givenBack: back))
            }
        }
        let all = try await every
        let without = CouponReport.Bucket(orders: max(all.orders - withCoupon.orders, 0), sales: max(all.sales - withCoupon.sales, 0))
        return CouponReport(
            store: store, range: range, zone: zone, currency: currency, withCoupon: withCoupon, withoutCoupon: without, givenBack: givenBack,
            couponCount: count, coupons: lines)
    }

    /// The orders of the range not cancelled and what they cost, over `orders_store_created`.
    private static func everyOrder(
        of store: StoreID, in scope: StoreScope, range: ReportRange, zone: TimeZone, on client: PostgresClient, logger: Logger
    ) async throws -> CouponReport.Bucket {
        let all = try await client.read(
            """
            WITH bounds AS MATERIALIZED (
                SELECT (\(range.from.description)::date::timestamp AT TIME ZONE \(zone.identifier)) AS first,
                       ((\(range.to.description)::date + 1)::timestamp AT TIME ZONE \(zone.identifier)) AS after
            )
            SELECT count(*)::int8 AS orders, coalesce(sum(o.total_amount), 0)::int8 AS sales
            FROM orders o
            WHERE o.store_id = \(store.rawValue) AND \(scope, column: "o.store_id") AND o.status <> 'cancelled'
              AND o.created_at >= (SELECT first FROM bounds) AND o.created_at < (SELECT after FROM bounds)
            """, logger: logger)
        for try await (orders, sales) in all.decode((Int64, Int64).self) { return CouponReport.Bucket(orders: Int(orders), sales: sales) }
        return CouponReport.Bucket()
    }
}
