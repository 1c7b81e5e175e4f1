import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Coupons: made by a store's manager or the chain's admin, ended, and applied to a cart that shows its discount")
struct CouponTests {
    /// A store with two products (1,000.00 and 250.00, categories Pantry and Dairy), its manager,
    /// and a customer whose cart holds one of each.
    struct Shop {
        var store: CatalogueStore
        var manager: Session
        var customer: Session
        var rice: String
        var milk: String
    }

    static func shop(_ app: TestApp) async throws -> Shop {
        let store = try await app.catalogueStore()
        let rice = try await app.addProduct("Rice", category: "Pantry", price: 100_000, at: store)
        let milk = try await app.addProduct("Milk", category: "Dairy", price: 25_000, at: store)
        let manager = try await app.signIn(role: .manager, store: store.id)
        let customer = try await app.registerCustomer()
        try await app.fillCart(customer, store: store.id, [(rice, 1), (milk, 1)])
        return Shop(store: store, manager: manager, customer: customer, rice: rice, milk: milk)
    }

    static func make(_ app: TestApp, _ shop: Shop, _ body: JSONValue) async throws -> TestReply {
        try await app.request(.post, "/v1/stores/\(shop.store.id)/coupons", json: body, token: shop.manager.token)
    }

    static func apply(_ app: TestApp, _ customer: Session, _ code: String) async throws -> TestReply {
        try await app.request(.put, "/v1/cart/coupon", json: ["code": .string(code)], token: customer.token)
    }

    @Test("a manager makes a coupon; codes are unique per scope in any case; every bound is 422 naming its field; lists and ends it")
    func making() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let made = try await Self.make(
                app, shop,
                [
                    "code": "Welcome10", "description": "10 % off", "percentOffBasisPoints": 1_000,
                    "minimumSpend": ["amount": 50_000, "currency": "JMD"], "perCustomerLimit": 1, "categories": ["Pantry"],
                ])
            #expect(made.status == .created, "\(made.text)")
            #expect(made.json["code"].string == "Welcome10")
            #expect(made.json["storeId"].string == shop.store.id)
            #expect(made.json["percentOffBasisPoints"].int == 1_000)
            #expect(made.json["minimumSpend"]["currency"].string == "JMD")
            #expect(made.json["state"].string == "live")
            #expect(made.json["redeemed"].int == 0)
            let id = try #require(made.json["id"].string)

            let taken = try await Self.make(app, shop, ["code": "WELCOME10", "amountOff": ["amount": 100, "currency": "JMD"]])
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "coupon_code_taken")

            let bad: [(JSONValue, String)] = [
                (["code": "ab", "percentOffBasisPoints": 10], "code"),
                (["code": "has space", "percentOffBasisPoints": 10], "code"),
                (["code": "newline\n", "percentOffBasisPoints": 10], "code"),
                (["code": "ZERO", "percentOffBasisPoints": 0], "percentOffBasisPoints"),
                (["code": "OVER", "percentOffBasisPoints": 10_001], "percentOffBasisPoints"),
                (["code": "NONE"], "percentOffBasisPoints"),
                (["code": "BOTH", "percentOffBasisPoints": 10, "amountOff": ["amount": 1, "currency": "JMD"]], "percentOffBasisPoints"),
                (["code": "USD", "amountOff": ["amount": 100, "currency": "USD"]], "amountOff"),
                (["code": "HUGE", "amountOff": ["amount": 10_000_000_001, "currency": "JMD"]], "amountOff"),
                (["code": "SPEND", "percentOffBasisPoints": 10, "minimumSpend": ["amount": 0, "currency": "JMD"]], "minimumSpend"),
                (["code": "PAST", "percentOffBasisPoints": 10, "validUntil": "2020-01-01T00:00:00Z"], "validUntil"),
                (
                    ["code": "BACKWARDS", "percentOffBasisPoints": 10, "validFrom": "2100-01-02T00:00:00Z", "validUntil": "2100-01-01T00:00:00Z"],
                    "validUntil"
                ),
                (["code": "LIMIT", "percentOffBasisPoints": 10, "redemptionLimit": 0], "redemptionLimit"),
                (["code": "PERCUST", "percentOffBasisPoints": 10, "perCustomerLimit": 1_001], "perCustomerLimit"),
                (["code": "GHOST", "percentOffBasisPoints": 10, "productIds": [.string(UUID().uuidString)]], "productIds"),
                (["code": "LONGDESC", "percentOffBasisPoints": 10, "description": .string(String(repeating: "x", count: 201))], "description"),
            ]
            for (body, field) in bad {
                let reply = try await Self.make(app, shop, body)
                #expect(reply.status == .unprocessableContent, "\(body): \(reply.status) \(reply.text)")
                #expect(reply.json["error"]["details"]["field"].string == field, "\(body): \(reply.text)")
            }

            let staff = try await app.signIn(role: .staff, store: shop.store.id)
            let byStaff = try await app.request(
                .post, "/v1/stores/\(shop.store.id)/coupons", json: ["code": "STAFF", "percentOffBasisPoints": 10], token: staff.token)
            #expect(byStaff.status == .forbidden)

            let admin = try await app.signInAdmin()
            let chain = try await app.request(.post, "/v1/coupons", json: ["code": "CHAIN5", "percentOffBasisPoints": 500], token: admin.token)
            #expect(chain.status == .created, "\(chain.text)")
            #expect(chain.json["storeId"] == .null)
            let sameAtStore = try await Self.make(app, shop, ["code": "chain5", "percentOffBasisPoints": 700])
            #expect(sameAtStore.status == .created, "a store's code may be the chain's: \(sameAtStore.text)")
            let chainTaken = try await app.request(.post, "/v1/coupons", json: ["code": "Chain5", "percentOffBasisPoints": 1], token: admin.token)
            #expect(chainTaken.errorCode == "coupon_code_taken")
            let mixed = try await app.request(
                .post, "/v1/coupons",
                json: ["code": "MIXED", "amountOff": ["amount": 1, "currency": "JMD"], "minimumSpend": ["amount": 1, "currency": "USD"]],
                token: admin.token)
            #expect(mixed.json["error"]["details"]["field"].string == "minimumSpend")

            let listed = try await app.request(.get, "/v1/stores/\(shop.store.id)/coupons?limit=2", token: shop.manager.token)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(listed.json["items"].array.count == 2)
            let next = try #require(listed.json["nextCursor"].string)
            let rest = try await app.request(.get, "/v1/stores/\(shop.store.id)/coupons?cursor=\(next)", token: shop.manager.token)
            let codes = (listed.json["items"].array + rest.json["items"].array).compactMap { $0["code"].string }
            #expect(codes == ["chain5", "CHAIN5", "Welcome10"])
            #expect(rest.json["nextCursor"] == .null)
            let chainList = try await app.request(.get, "/v1/coupons", token: admin.token)
            #expect(chainList.json["items"].array.compactMap { $0["code"].string } == ["CHAIN5"])
            let managerAtChain = try await app.request(.get, "/v1/coupons", token: shop.manager.token)
            #expect(managerAtChain.status == .forbidden)

            let chainID = try #require(chain.json["id"].string)
            let endChainAtStore = try await app.request(.post, "/v1/stores/\(shop.store.id)/coupons/\(chainID)/end", token: shop.manager.token)
            #expect(endChainAtStore.status == .notFound)
            let ended = try await app.request(.post, "/v1/stores/\(shop.store.id)/coupons/\(id)/end", token: shop.manager.token)
            #expect(ended.status == .ok, "\(ended.text)")
            #expect(ended.json["state"].string == "ended")
            #expect(ended.json["endedAt"].string != nil)
            let again = try await app.request(.post, "/v1/stores/\(shop.store.id)/coupons/\(id)/end", token: shop.manager.token)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "coupon_ended")
            let reused = try await Self.make(app, shop, ["code": "welcome10", "percentOffBasisPoints": 1_500])
            #expect(reused.status == .created, "an ended coupon's code is free: \(reused.text)")
            let chainEnded = try await app.request(.post, "/v1/coupons/\(chainID)/end", token: admin.token)
            #expect(chainEnded.json["state"].string == "ended")
            let malformed = try await app.request(.post, "/v1/coupons/not-a-uuid/end", token: admin.token)
            #expect(malformed.status == .notFound)
        }
    }

    @Test("a customer applies a code in any case: the cart shows each line's share, the discount, subtotal and total; DELETE removes it")
    func applying() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            _ = try await Self.make(
                app, shop, ["code": "Pantry15", "description": "15 % off the pantry", "percentOffBasisPoints": 1_500, "categories": ["Pantry"]])
            let applied = try await Self.apply(app, shop.customer, "pANTRY15")
            #expect(applied.status == .ok, "\(applied.text)")
            #expect(applied.json["coupon"]["code"].string == "Pantry15")
            #expect(applied.json["coupon"]["percentOffBasisPoints"].int == 1_500)
            #expect(applied.json["coupon"]["discount"]["amount"].int == 15_000)
            #expect(!applied.json["coupon"].has("problem"))
            #expect(applied.json["subtotal"]["amount"].int == 125_000)
            #expect(applied.json["discount"]["amount"].int == 15_000)
            #expect(applied.json["total"]["amount"].int == 110_000)
            let lines = applied.json["items"].array
            #expect(lines.first { $0["productId"].string == shop.rice }?["discount"]["amount"].int == 15_000)
            #expect(lines.first { $0["productId"].string == shop.milk }?["discount"]["amount"].int == 0)

            let read = try await app.request(.get, "/v1/cart", token: shop.customer.token)
            #expect(read.json["total"]["amount"].int == 110_000)
            // Changing a line re-shares it: two bags of rice.
            let more = try await app.request(.put, "/v1/cart/items/\(shop.rice)", json: ["quantity": 2], token: shop.customer.token)
            #expect(more.json["discount"]["amount"].int == 30_000)
            #expect(more.json["coupon"]["discount"]["amount"].int == 30_000)

            let removed = try await app.request(.delete, "/v1/cart/coupon", token: shop.customer.token)
            #expect(removed.status == .ok)
            #expect(!removed.json.has("coupon"))
            #expect(removed.json["discount"]["amount"].int == 0)
            #expect(removed.json["total"]["amount"].int == 225_000)
            let removedAgain = try await app.request(.delete, "/v1/cart/coupon", token: shop.customer.token)
            #expect(removedAgain.status == .ok)
        }
    }

    @Test(
        "every refusal has its code (409), nothing changes; the cart keeps showing a coupon that no longer applies, with its problem and no discount")
    func refusals() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            func make(_ body: JSONValue) async throws -> String {
                let reply = try await Self.make(app, shop, body)
                guard reply.status == .created else { throw TestSetupError("coupon: \(reply.text)") }
                return reply.json["id"].string!
            }
            let expired = try await make(["code": "OLD", "percentOffBasisPoints": 1_000])
            _ = try await sql(
                "UPDATE coupons SET valid_from = now() - interval '2 days', valid_until = now() - interval '1 day' WHERE id = $1", [expired],
                on: app.database)
            _ = try await make(["code": "SOON", "percentOffBasisPoints": 1_000, "validFrom": "2100-01-01T00:00:00Z"])
            _ = try await make(["code": "BIGSPEND", "percentOffBasisPoints": 1_000, "minimumSpend": ["amount": 200_000, "currency": "JMD"]])
            let gone = try await make(["code": "GONE", "percentOffBasisPoints": 1_000, "redemptionLimit": 1])
            _ = try await sql("UPDATE coupons SET redeemed = 1 WHERE id = $1", [gone], on: app.database)
            let once = try await make(["code": "ONCE", "percentOffBasisPoints": 1_000, "perCustomerLimit": 1])
            let other = try await app.addProduct("Other", price: 1_000, at: shop.store)
            _ = try await make(["code": "OTHERONLY", "percentOffBasisPoints": 1_000, "productIds": [.string(other)]])
            let ended = try await make(["code": "ENDED", "percentOffBasisPoints": 1_000])
            _ = try await app.request(.post, "/v1/stores/\(shop.store.id)/coupons/\(ended)/end", token: shop.manager.token)

            // The customer used ONCE on an earlier order.
            let earlier = try await app.registerCustomer()
            try await app.fillCart(earlier, store: shop.store.id, [(shop.milk, 1)])
            let order = try await app.checkout(earlier)
            #expect(order.status == .created, "\(order.text)")
            _ = try await sql(
                """
                INSERT INTO coupon_redemptions (order_id, store_id, coupon_id, customer_id, nth, discount_amount)
                VALUES ($1, $2, $3, $4, 1, 0)
                """, [order.json["id"].string!, shop.store.id, once, shop.customer.userID], on: app.database)

            for (code, expected) in [
                ("NOSUCH", "coupon_unknown"), ("old", "coupon_expired"), ("ended", "coupon_expired"), ("soon", "coupon_not_yet_valid"),
                ("bigspend", "coupon_minimum_spend"), ("gone", "coupon_exhausted"), ("once", "coupon_already_used"),
                ("otheronly", "coupon_not_applicable"),
            ] {
                let reply = try await Self.apply(app, shop.customer, code)
                #expect(reply.status == .conflict, "\(code): \(reply.status) \(reply.text)")
                #expect(reply.errorCode == expected, "\(code): \(reply.text)")
            }
            let short = try await Self.apply(app, shop.customer, "BigSpend")
            #expect(short.json["error"]["details"]["shortfall"] == ["amount": 75_000, "currency": "JMD"])
            #expect(short.json["error"]["details"]["minimumSpend"]["amount"].int == 200_000)
            let soon = try await Self.apply(app, shop.customer, "SOON")
            #expect(soon.json["error"]["details"]["validFrom"].string == "2100-01-01T00:00:00Z")
            #expect(try await sql("SELECT coupon_id FROM carts WHERE customer_id = $1", [shop.customer.userID], on: app.database)[0][0] == nil)

            // An empty cart: nothing for a coupon to apply to.
            let empty = try await app.registerCustomer()
            try await app.fillCart(empty, store: shop.store.id, [])
            let onEmpty = try await Self.apply(app, empty, "BIGSPEND")
            #expect(onEmpty.errorCode == "coupon_not_applicable")
            let noStore = try await Self.apply(app, try await app.registerCustomer(), "BIGSPEND")
            #expect(noStore.errorCode == "no_store_chosen")

            // Applied while the spend was enough; a line removed leaves it below the minimum.
            _ = try await make([
                "code": "SPEND1000", "amountOff": ["amount": 10_000, "currency": "JMD"], "minimumSpend": ["amount": 100_000, "currency": "JMD"],
            ])
            let applied = try await Self.apply(app, shop.customer, "spend1000")
            #expect(applied.json["discount"]["amount"].int == 10_000, "\(applied.text)")
            let fewer = try await app.request(.delete, "/v1/cart/items/\(shop.rice)", token: shop.customer.token)
            #expect(fewer.json["coupon"]["code"].string == "SPEND1000")
            #expect(fewer.json["coupon"]["problem"]["code"].string == "coupon_minimum_spend")
            #expect(fewer.json["coupon"]["problem"]["shortfall"] == ["amount": 75_000, "currency": "JMD"])
            #expect(fewer.json["coupon"]["problem"]["message"].string != nil)
            #expect(fewer.json["coupon"]["discount"]["amount"].int == 0)
            #expect(fewer.json["discount"]["amount"].int == 0)
            #expect(fewer.json["total"]["amount"].int == 25_000)
            #expect(fewer.json["items"][0]["discount"]["amount"].int == 0)
        }
    }

    @Test("a store's coupon is not found at another store; a chain coupon applies at any store of its currency, not another's")
    func storesAndChain() async throws {
        try await withApp { app in
            let a = try await Self.shop(app)
            let b = try await Self.shop(app)
            _ = try await Self.make(app, a, ["code": "ONLYA", "percentOffBasisPoints": 1_000])
            let atB = try await Self.apply(app, b.customer, "ONLYA")
            #expect(atB.errorCode == "coupon_unknown")

            let admin = try await app.signInAdmin()
            let chain = try await app.request(
                .post, "/v1/coupons", json: ["code": "CHAINJMD", "amountOff": ["amount": 5_000, "currency": "JMD"]], token: admin.token)
            #expect(chain.status == .created, "\(chain.text)")
            for shop in [a, b] {
                let reply = try await Self.apply(app, shop.customer, "chainjmd")
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.json["discount"]["amount"].int == 5_000)
            }
            _ = try await app.request(
                .post, "/v1/coupons", json: ["code": "CHAINUSD", "amountOff": ["amount": 5_000, "currency": "USD"]], token: admin.token)
            let usd = try await Self.apply(app, a.customer, "CHAINUSD")
            #expect(usd.errorCode == "coupon_not_applicable")
            // A store's coupon wins over the chain's of the same code at that store.
            _ = try await Self.make(app, a, ["code": "chainjmd", "percentOffBasisPoints": 10_000])
            let own = try await Self.apply(app, a.customer, "CHAINJMD")
            #expect(own.json["coupon"]["percentOffBasisPoints"].int == 10_000)
            #expect(own.json["total"]["amount"].int == 0)
            // Moving the cart to store B: A's coupon stays on it, refused there.
            let moved = try await app.request(.put, "/v1/cart", json: ["storeId": .string(b.store.id)], token: a.customer.token)
            #expect(moved.json["coupon"]["problem"]["code"].string == "coupon_not_applicable")
        }
    }

    @Test("ten unknown codes in the window: 429 too_many_attempts with Retry-After, even for a right code; another account is unaffected")
    func throttle() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            _ = try await Self.make(app, shop, ["code": "RIGHT", "percentOffBasisPoints": 1_000])
            let other = try await app.registerCustomer()
            try await app.fillCart(other, store: shop.store.id, [(shop.rice, 1)])
            for guess in 0..<Coupons.throttleLimit {
                let reply = try await Self.apply(app, shop.customer, "GUESS\(guess)")
                #expect(reply.errorCode == "coupon_unknown", "guess \(guess): \(reply.text)")
                if guess == 4 {
                    // A right code between guesses clears nothing.
                    #expect(try await Self.apply(app, shop.customer, "RIGHT").status == .ok)
                }
            }
            let stopped = try await Self.apply(app, shop.customer, "GUESS99")
            #expect(stopped.status == .tooManyRequests)
            #expect(stopped.errorCode == "too_many_attempts")
            let seconds = try #require(stopped.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...Coupons.throttleWindowSeconds).contains(seconds))
            #expect(stopped.json["error"]["details"]["retryAfterSeconds"].int == seconds)
            let right = try await Self.apply(app, shop.customer, "RIGHT")
            #expect(right.status == .tooManyRequests)

            let unaffected = try await Self.apply(app, other, "right")
            #expect(unaffected.status == .ok, "\(unaffected.text)")
            #expect(try await Self.apply(app, other, "NOPE").errorCode == "coupon_unknown")

            // The window over, the account may try again.
            _ = try await sql(
                "UPDATE coupon_attempts SET window_start = now() - interval '16 minutes' WHERE customer_id = $1", [shop.customer.userID],
                on: app.database)
            #expect(try await Self.apply(app, shop.customer, "RIGHT").status == .ok)
        }
    }

    @Test("the demo store's WELCOME10 takes 10 % off a cart of JMD 2,000.00 or more, and says the shortfall below it")
    func demoCoupon() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let rows = try await sql(
                "SELECT p.id, p.price_amount FROM products p JOIN stock s ON s.product_id = p.id AND s.store_id = $1 ORDER BY p.sku LIMIT 1",
                [store], on: app.database)
            let (product, price) = (rows[0][0]!, Int(rows[0][1]!)!)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            let short = try await Self.apply(app, customer, "welcome10")
            #expect(short.errorCode == "coupon_minimum_spend", "\(short.text)")
            #expect(short.json["error"]["details"]["shortfall"]["amount"].int == Int(DemoCoupons.minimumSpend) - price)
            // The sentence says how much more to spend, as the shop shows it.
            let more = MoneyText.format(DemoCoupons.minimumSpend - Int64(price), "JMD")
            #expect(short.errorMessage?.hasPrefix("Spend \(more) more to use this coupon") == true, "\(short.text)")
            let enough = (Int(DemoCoupons.minimumSpend) + price - 1) / price
            _ = try await app.request(.put, "/v1/cart/items/\(product)", json: ["quantity": .int(enough)], token: customer.token)
            let applied = try await Self.apply(app, customer, "WELCOME10")
            #expect(applied.status == .ok, "\(applied.text)")
            #expect(applied.json["discount"]["amount"].int == Int(Money.percentage(of: Int64(enough * price), basisPoints: 1_000)))
        }
    }
}
