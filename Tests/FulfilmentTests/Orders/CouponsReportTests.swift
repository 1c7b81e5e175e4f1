import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "what did our coupons cost, and did they bring bigger baskets?" Over the orders
/// placed in the range: per coupon, the orders that redeemed it (cancelled ones gave it back),
/// the discount and what those orders cost; the average basket with a coupon against without.
@Suite("Reports: coupons")
struct CouponsReportTests {
    /// A coupon: the store's own (a percentage) or, without a store, the chain's (an amount).
    static func coupon(_ app: TestApp, store: String?, code: String) async throws -> String {
        try await sql(
            """
            INSERT INTO coupons (store_id, code, kind, percent_basis_points, amount_off, currency)
            VALUES (nullif($1, '')::uuid, $2, CASE WHEN $1 = '' THEN 'amount' ELSE 'percent' END,
                    CASE WHEN $1 = '' THEN NULL ELSE 1000 END, CASE WHEN $1 = '' THEN 500 END, 'JMD')
            RETURNING id
            """, [store ?? "", code], on: app.database)[0][0]!
    }

    /// An order of `store` placed at `placed`, costing `total` after `discount` off by `coupon`.
    @discardableResult
    static func order(
        _ app: TestApp, store: String, customer: Session, product: String, placed: String, total: Int, coupon: String? = nil,
        discount: Int = 0, cancelled: Bool = false
    ) async throws -> String {
        let id = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product, 1)])
        try await sql(
            """
            UPDATE orders SET created_at = $2::timestamptz, total_amount = $3::bigint, coupon_id = nullif($4, '')::uuid,
                discount_amount = $5::bigint, status = CASE WHEN $6 THEN 'cancelled' ELSE status END,
                cancelled_at = CASE WHEN $6 THEN $2::timestamptz + interval '1 hour' END
            WHERE id = $1
            """, [id, placed, String(total), coupon ?? "", String(discount), cancelled ? "true" : "false"], on: app.database)
        return id
    }

    @Test("redemptions, discount and sales per coupon, the given back apart, the uplift of the basket over the days' other orders")
    func coupons() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let other = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let customer = try await app.registerCustomer()
            let product = try await app.createProduct(store: store, name: "Rice")
            let elsewhere = try await app.createProduct(store: other, name: "Rice")
            let save10 = try await Self.coupon(app, store: store, code: "SAVE10")
            let chain5 = try await Self.coupon(app, store: nil, code: "-CHAIN5")
            let order = { (placed: String, total: Int, coupon: String?, discount: Int, cancelled: Bool) in
                try await Self.order(
                    app, store: store, customer: customer, product: product, placed: placed, total: total, coupon: coupon, discount: discount,
                    cancelled: cancelled)
            }
            // Without a coupon: 10.00 and 30.00 (and a cancelled 90.00, and 50.00 the day before the range).
            _ = try await order("2026-11-02T10:00:00Z", 1000, nil, 0, false)
            _ = try await order("2026-11-03T10:00:00Z", 3000, nil, 0, false)
            _ = try await order("2026-11-03T11:00:00Z", 9000, nil, 0, true)
            _ = try await order("2026-10-31T23:00:00Z", 5000, nil, 0, false)
            // SAVE10 twice (18.00 saving 2.00, 27.00 saving 3.00) and given back once; CHAIN5 once.
            _ = try await order("2026-11-02T12:00:00Z", 1800, save10, 200, false)
            _ = try await order("2026-11-04T12:00:00Z", 2700, save10, 300, false)
            _ = try await order("2026-11-04T13:00:00Z", 900, save10, 100, true)
            _ = try await order("2026-11-05T12:00:00Z", 4500, chain5, 500, false)
            // Left out: SAVE10 after the range; the chain's coupon at another store.
            _ = try await order("2026-11-08T00:30:00Z", 1800, save10, 200, false)
            try await Self.order(
                app, store: other, customer: customer, product: elsewhere, placed: "2026-11-03T12:00:00Z", total: 900, coupon: chain5,
                discount: 500)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/coupons?from=2026-11-01&to=2026-11-07", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            let jmd = { (amount: Int) -> JSONValue in ["amount": .int(amount), "currency": "JMD"] }
            #expect(report["withCoupon"] == ["orders": 3, "sales": jmd(9000), "discount": jmd(1000), "averageBasket": jmd(3000)])
            #expect(report["withoutCoupon"] == ["orders": 2, "sales": jmd(4000), "discount": jmd(0), "averageBasket": jmd(2000)])
            // 30.00 against 20.00 an order: half as much again.
            #expect(OnTimeReportTests.number(report["uplift"]) == 0.5)
            #expect(report["givenBack"] == 1 && report["couponCount"] == 2)
            #expect(
                report["coupons"] == [
                    [
                        "couponId": .string(save10), "code": "SAVE10", "chainWide": false, "givenBack": 1,
                        "redeemed": ["orders": 2, "sales": jmd(4500), "discount": jmd(500), "averageBasket": jmd(2250)],
                    ],
                    [
                        "couponId": .string(chain5), "code": "-CHAIN5", "chainWide": true, "givenBack": 0,
                        "redeemed": ["orders": 1, "sales": jmd(4500), "discount": jmd(500), "averageBasket": jmd(4500)],
                    ],
                ])

            let none = try await app.request(.get, "/v1/stores/\(store)/reports/coupons?from=2026-10-01&to=2026-10-02", token: manager.token)
            #expect(none.status == .ok)
            #expect(none.json["withCoupon"]["orders"] == 0 && !none.json.has("uplift") && none.json["coupons"] == [])
        }
    }
}
