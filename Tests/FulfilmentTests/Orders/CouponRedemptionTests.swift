import Foundation
import HTTPTypes
import Logging
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 26: checkout redeems the cart's coupon inside its one statement (`place_order`: the
/// coupon row locked after the cart's, checked again under the lock, counted on it, numbered per
/// customer under a unique index); a cancelled or expired order gives the redemption back; a
/// short pick or a removed line keeps only the part of a line's share that goes with what it
/// still holds.
@Suite("Coupons redeemed at checkout")
struct CouponRedemptionTests {
    let logger = Logger(label: "coupon-redemption-test")

    @Test("the cart's coupon is redeemed at checkout: the order and each line carry the discount, the coupon counts it, the cart lets it go")
    func redeemedAtCheckout() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let milk = try await app.addProduct(store: store, name: "Milk 1L", price: 45000, onHand: 5)
            let bread = try await app.addProduct(store: store, name: "Bread", price: 32000, onHand: 5)
            let coupon = try await app.addCoupon(store: store, percent: 1000)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(milk, 2), (bread, 1)])
            try await app.putCoupon(coupon, on: customer)

            let placed = try await app.checkout(customer)
            #expect(placed.status == .created, "\(placed.text)")
            // 10 % of 122,000 is 12,200, shared in proportion: 90,000 → 9,000 and 32,000 → 3,200.
            #expect(placed.json["subtotal"] == ["amount": 122000, "currency": "JMD"])
            #expect(placed.json["discount"] == ["amount": 12200, "currency": "JMD"])
            #expect(placed.json["total"] == ["amount": 109800, "currency": "JMD"])
            #expect(placed.json["amountDue"] == ["amount": 109800, "currency": "JMD"])
            let id = try #require(placed.json["id"].string)
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["total"] == placed.json["total"] && seen.json["discount"] == placed.json["discount"])
            #expect(seen.json["subtotal"] == placed.json["subtotal"])
            let shares = Dictionary(
                uniqueKeysWithValues: seen.json["lines"].array.map { ($0["name"].string ?? "", $0["discount"]["amount"].int ?? -1) })
            #expect(shares == ["Milk 1L": 9000, "Bread": 3200])
            #expect(placed.json["lines"].array.map { $0["discount"]["amount"].int ?? -1 }.sorted() == [3200, 9000])

            #expect(
                try await sql("SELECT count(*) FROM coupon_redemptions WHERE coupon_id = $1 AND released_at IS NULL", [coupon], on: app.database) == [
                    ["1"]
                ])
            #expect(
                try await sql(
                    "SELECT customer_id, nth, discount_amount, released_at IS NULL FROM coupon_redemptions WHERE order_id = $1", [id],
                    on: app.database) == [[customer.userID, "1", "12200", "t"]])
            #expect(
                try await sql("SELECT coupon_id::text, discount_amount FROM orders WHERE id = $1", [id], on: app.database)
                    == [[coupon, "12200"]])
            #expect(try await sql("SELECT coupon_id FROM carts WHERE customer_id = $1", [customer.userID], on: app.database) == [[nil]])

            // Without a coupon nothing changes: discount 0, subtotal = total.
            try await app.fillCart(customer, store: store, [(bread, 1)])
            let plain = try await app.checkout(customer)
            #expect(plain.json["discount"] == ["amount": 0, "currency": "JMD"])
            #expect(plain.json["subtotal"] == plain.json["total"])
            #expect(plain.json["lines"][0]["discount"] == ["amount": 0, "currency": "JMD"])
        }
    }

    @Test("checkout with a coupon is still one read and one write in BEGIN … COMMIT")
    func statementBudget() async throws {
        let logs = LogCapture()
        try await withApp(logHandler: logs) { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, onHand: 5)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(rice, 2)])
            try await app.putCoupon(try await app.addCoupon(store: store, percent: 500), on: customer)
            #expect(try await app.checkout(customer).status == .created)
            let used = try await app.addCoupon(store: store, percent: 500, limit: 1, redeemed: 1)
            try await app.fillCart(customer, store: store, [(rice, 1)])
            try await app.putCoupon(used, on: customer)
            #expect(try await app.checkout(customer).errorCode == "coupon_exhausted")
            #expect(logs.requests(.post, "/v1/checkout").map(\.statements) == [5, 5])
        }
    }

    @Test("checkout refuses a coupon the cart no longer meets as the cart does (Money in details), ordering nothing")
    func refusedAtCheckout() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, price: 2000, onHand: 10)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            let demanding = try await app.addCoupon(store: store, percent: 1000, minimumSpend: 5000)
            try await app.putCoupon(demanding, on: customer)
            let short = try await app.checkout(customer)
            #expect(short.status == .conflict)
            #expect(short.errorCode == "coupon_minimum_spend")
            #expect(short.json["error"]["details"]["shortfall"] == ["amount": 3000, "currency": "JMD"])
            #expect(short.json["error"]["details"]["minimumSpend"] == ["amount": 5000, "currency": "JMD"])
            _ = try await sql("UPDATE coupons SET ended_at = now() WHERE id = $1", [demanding], on: app.database)
            #expect(try await app.checkout(customer).errorCode == "coupon_expired")
            #expect(try await sql("SELECT count(*) FROM orders", on: app.database) == [["0"]])
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            #expect(try await app.request(.get, "/v1/cart", token: customer.token).json["items"].array.count == 1)
        }
    }

    @Test("10 customers race for a coupon's last redemption: exactly one discounted order, 9 coupon_exhausted and no order")
    func lastRedemptionRace() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, price: 2000, onHand: 100)
            let coupon = try await app.addCoupon(store: store, amountOff: 500, limit: 5, redeemed: 4)
            var customers: [Session] = []
            for _ in 0..<10 {
                let customer = try await app.registerCustomer()
                try await app.fillCart(customer, store: store, [(product, 1)])
                try await app.putCoupon(coupon, on: customer)
                customers.append(customer)
            }
            // Each customer on a connection of their own, all at once.
            let shoppers = customers
            let replies = try await app.race(shoppers.count) { index, racer in try await racer.checkout(shoppers[index]) }
            let placed = replies.filter { $0.status == .created }
            #expect(placed.count == 1, "\(replies.map { "\($0.status.code) \($0.errorCode ?? "")" })")
            #expect(placed.first?.json["discount"]["amount"].int == 500)
            #expect(placed.first?.json["total"]["amount"].int == 1500)
            let refused = replies.filter { $0.status != .created }
            #expect(refused.count == 9)
            #expect(
                refused.allSatisfy { $0.status == .conflict && $0.errorCode == "coupon_exhausted" },
                "\(refused.map { "\($0.status.code) \($0.errorCode ?? "")" })")
            #expect(try await sql("SELECT count(*), sum(discount_amount) FROM orders", on: app.database) == [["1", "500"]])
            #expect(try await sql("SELECT redeemed FROM coupons WHERE id = $1", [coupon], on: app.database) == [["5"]])
            #expect(try await sql("SELECT count(*) FROM coupon_redemptions", on: app.database) == [["1"]])
            // Nothing else was reserved, and the losers' carts (with their coupon) are as they were.
            #expect(try await app.stock(store: store, product: product) == (100, 1))
            #expect(
                try await sql("SELECT count(*) FROM carts WHERE coupon_id = $1", [coupon], on: app.database) == [["9"]])
        }
    }

    @Test("one customer's racing checkouts with a once-per-customer coupon: one discounted order, one live redemption")
    func perCustomerRace() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, price: 2000, onHand: 100)
            let coupon = try await app.addCoupon(store: store, percent: 2500, perCustomer: 1)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 2)])
            try await app.putCoupon(coupon, on: customer)
            let replies = try await app.race(6) { _, racer in try await racer.checkout(customer) }
            #expect(replies.filter { $0.status == .created }.count == 1)
            // The others waited for the cart and found it checked out.
            #expect(replies.filter { $0.status != .created }.allSatisfy { $0.status == .conflict })
            #expect(
                try await sql(
                    "SELECT count(*) FROM coupon_redemptions WHERE coupon_id = $1 AND customer_id = $2 AND released_at IS NULL",
                    [coupon, customer.userID], on: app.database) == [["1"]])
            #expect(
                try await sql("SELECT count(*) FROM coupon_redemptions WHERE coupon_id = $1 AND released_at IS NULL", [coupon], on: app.database) == [
                    ["1"]
                ])

            // Used up for this customer: the next checkout with it is refused, and nothing is ordered.
            try await app.fillCart(customer, store: store, [(product, 1)])
            try await app.putCoupon(coupon, on: customer)
            let again = try await app.checkout(customer)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "coupon_already_used")
            #expect(try await sql("SELECT count(*) FROM orders", on: app.database) == [["1"]])
            // The unique index holds the number even against a statement that skipped the check:
            // a second live redemption numbered 1 for this customer is refused, numbered 2 taken.
            _ = try await sql("UPDATE carts SET coupon_id = NULL WHERE customer_id = $1", [customer.userID], on: app.database)
            let plain = try #require(try await app.checkout(customer).json["id"].string)
            let second = """
                INSERT INTO coupon_redemptions (order_id, store_id, coupon_id, customer_id, nth, discount_amount)
                SELECT o.id, o.store_id, $1, o.customer_id, $3::int, 0 FROM orders o WHERE o.id = $2
                """
            await #expect(throws: (any Error).self) { try await sql(second, [coupon, plain, "1"], on: app.database) }
            _ = try await sql(second, [coupon, plain, "2"], on: app.database)
        }
    }

    @Test("a cancelled order gives its redemption back: the next customer can use the coupon, and the customer their number")
    func cancelReleases() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let product = try await app.addProduct(store: store, price: 2000, onHand: 100)
            let coupon = try await app.addCoupon(store: store, amountOff: 300, limit: 1, perCustomer: 1)
            let first = try await app.registerCustomer()
            let second = try await app.registerCustomer()
            for customer in [first, second] {
                try await app.fillCart(customer, store: store, [(product, 1)])
                try await app.putCoupon(coupon, on: customer)
            }
            let placed = try await app.checkout(first)
            #expect(placed.json["total"]["amount"].int == 1700)
            let refused = try await app.checkout(second)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "coupon_exhausted")

            let id = try #require(placed.json["id"].string)
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            #expect(try await sql("SELECT redeemed FROM coupons WHERE id = $1", [coupon], on: app.database) == [["0"]])
            #expect(
                try await sql("SELECT released_at IS NOT NULL FROM coupon_redemptions WHERE order_id = $1", [id], on: app.database)
                    == [["t"]])
            // The order keeps what it saved, for the record.
            #expect(try await app.request(.get, "/v1/orders/\(id)", token: first.token).json["discount"]["amount"].int == 300)

            let now = try await app.checkout(second)
            #expect(now.status == .created, "\(now.text)")
            #expect(now.json["discount"]["amount"].int == 300)
            #expect(try await sql("SELECT redeemed FROM coupons WHERE id = $1", [coupon], on: app.database) == [["1"]])

            // The customer's own cancellation gives it back too, and their number 1 can be used again.
            let mine = try #require(now.json["id"].string)
            #expect(try await app.request(.post, "/v1/orders/\(mine)/cancel", json: [:], token: second.token).status == .ok)
            try await app.fillCart(second, store: store, [(product, 1)])
            try await app.putCoupon(coupon, on: second)
            let third = try await app.checkout(second)
            #expect(third.status == .created, "\(third.text)")
            #expect(
                try await sql(
                    "SELECT nth, released_at IS NULL FROM coupon_redemptions WHERE customer_id = $1 ORDER BY redeemed_at",
                    [second.userID], on: app.database) == [["1", "f"], ["1", "t"]])
        }
    }

    @Test("an order that expires uncollected gives its redemption back in the sweep's transaction")
    func expiryReleases() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, price: 2000, onHand: 100)
            let coupon = try await app.addCoupon(store: store, percent: 1000, limit: 1)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            try await app.putCoupon(coupon, on: customer)
            let placed = try await app.checkout(customer)
            #expect(placed.json["total"]["amount"].int == 1800)
            #expect(try await sql("SELECT redeemed FROM coupons WHERE id = $1", [coupon], on: app.database) == [["1"]])
            let logger = self.logger
            let swept = try await app.withDatabase {
                try await OrderExpiry(database: $0).sweep(now: Date().addingTimeInterval(30 * 86_400), logger: logger)
            }
            #expect(swept.map(\.description) == [placed.json["id"].string ?? ""])
            #expect(try await sql("SELECT redeemed FROM coupons WHERE id = $1", [coupon], on: app.database) == [["0"]])
            #expect(try await sql("SELECT count(*) FROM coupon_redemptions WHERE released_at IS NULL", on: app.database) == [["0"]])
        }
    }

    @Test("a discounted line packed short keeps its share pro rata (half to even): total and refund owed as by hand")
    func shortPickOfDiscountedLine() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let product = try await app.addProduct(store: store, price: 1000, onHand: 10)
            let coupon = try await app.addCoupon(store: store, amountOff: 500)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 3)])
            try await app.putCoupon(coupon, on: customer)
            let placed = try await app.checkout(customer, method: "prepaid")
            #expect(placed.json["total"]["amount"].int == 2500)
            let id = try #require(placed.json["id"].string)
            let paid = try await app.webhook(
                #"{"id": "evt_cp1", "type": "payment.succeeded", "orderId": "\#(id)", "amount": {"amount": 2500, "currency": "JMD"}}"#)
            #expect(paid.json["outcome"].string == "paid")

            // 1 of 3 packed: it keeps 500 × 1/3 = 166.67 → 167 of the share, so it costs 1,000 − 167 = 833;
            // the customer paid 2,500 and is owed 1,667 back (never more than the line's 2,500).
            try await PaymentTests().packShort(app, store: store, order: placed.json, picked: 1, by: staff)
            let packed = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(packed.json["total"]["amount"].int == 833)
            #expect(packed.json["discount"]["amount"].int == 167)
            #expect(packed.json["subtotal"]["amount"].int == 1000)
            #expect(packed.json["paymentStatus"].string == "refund_due")
            #expect(packed.json["refundDue"]["amount"].int == 1667)
            // The line still shows the share it was given at checkout.
            #expect(packed.json["lines"][0]["discount"]["amount"].int == 500)
        }
    }

    @Test("a line's amount for a held quantity: never negative, never more back than it paid, exact at none and all")
    func lineAmountBounds() async throws {
        try await withApp { app in
            // (unit price, quantity, share, held) → amount
            let cases: [(Int, Int, Int, Int, Int)] = [
                (1000, 3, 500, 1, 833), (1000, 3, 500, 2, 1667), (1000, 3, 500, 3, 2500), (1000, 3, 500, 0, 0),
                (1, 3, 3, 1, 0), (1, 3, 3, 2, 0), (5, 2, 1, 1, 5),  // 0.5 → 0 (half to even)
                (5, 2, 3, 1, 3),  // 1.5 → 2
                (7, 4, 10, 3, 13),  // 7.5 → 8: 21 − 8
            ]
            for (price, quantity, share, held, expected) in cases {
                let amount = try await sql(
                    """
                    WITH l AS (SELECT (json_populate_record(NULL::order_lines,
                                 json_build_object('unit_price', $1::bigint, 'quantity', $2::int, 'discount_amount', $3::bigint))) AS line)
                    SELECT order_line_amount(l.line, $4::int) FROM l
                    """, [String(price), String(quantity), String(share), String(held)], on: app.database)
                #expect(amount == [[String(expected)]], "price \(price) × \(quantity), share \(share), held \(held)")
            }
        }
    }
}

extension TestApp {
    /// A coupon straight in the database, at `store` (nil: chain-wide): `percent` basis points
    /// off, or `amountOff` minor units (JMD).
    func addCoupon(
        store: String?, percent: Int? = nil, amountOff: Int? = nil, limit: Int? = nil, perCustomer: Int? = nil, redeemed: Int = 0,
        minimumSpend: Int? = nil
    ) async throws -> String {
        let code = "T\(UUID().uuidString.prefix(8))"
        return try await sql(
            """
            INSERT INTO coupons (store_id, code, kind, percent_basis_points, amount_off, currency, redemption_limit,
                                 per_customer_limit, redeemed, minimum_spend)
            VALUES (nullif($1, '')::uuid, $2, CASE WHEN nullif($3, '') IS NULL THEN 'amount' ELSE 'percent' END,
                    nullif($3, '')::int, nullif($4, '')::bigint,
                    CASE WHEN nullif($4, '') IS NULL AND nullif($8, '') IS NULL THEN NULL ELSE 'JMD' END,
                    nullif($5, '')::int, nullif($6, '')::int, $7::int, nullif($8, '')::bigint)
            RETURNING id
            """,
            [
                store ?? "", code, percent.map(String.init) ?? "", amountOff.map(String.init) ?? "", limit.map(String.init) ?? "",
                perCustomer.map(String.init) ?? "", String(redeemed), minimumSpend.map(String.init) ?? "",
            ], on: database)[0][0]!
    }

    /// Puts `coupon` on the customer's cart straight in the database (as PUT /v1/cart/coupon would).
    func putCoupon(_ coupon: String, on customer: Session) async throws {
        _ = try await sql("UPDATE carts SET coupon_id = $1 WHERE customer_id = $2", [coupon, customer.userID], on: database)
    }
}
