import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// What a shopper met trying the shop as a new user does (issue 45), each now a sentence on the
/// page: a mistyped address, a store change that re-priced the cart, a coupon short of its spend.
@Suite("The shop tells the shopper what happened, in words")
struct ShopSentencesTests {
    @Test("a wrong address in the shop is the shop's page with a way back, never the API's JSON, signed in or not")
    func wrongAddress() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let cookie = try await ShopFormTests.shopper(app, store: store)
            for path in ["/shop/prodcuts", "/shop/cart/nothing/here", "/orders/not-an-order/receipt.gif"] {
                for visitor in [cookie, nil] {
                    let reply = try await app.form(.get, path, cookie: visitor)
                    #expect(reply.status == .notFound, "\(path)")
                    #expect(reply.headers[.contentType]?.hasPrefix("text/html") == true, "\(path): \(reply.text)")
                    #expect(reply.text.contains("<a href=\"/shop\" id=\"back\">Back to the shop</a>"), "\(path)")
                    #expect(!reply.text.contains("\"error\""))
                }
            }
            // The pages that are there are still there.
            #expect(try await app.form(.get, "/shop/cart", cookie: cookie).status == .ok)
        }
    }

    @Test("choosing another store says which lines of the cart it re-priced or cannot fill")
    func storeChangeSaysWhatChanged() async throws {
        try await withApp { app in
            let kingston = try await app.createStore(name: "Kingston")
            let mobay = try await app.createStore(name: "Montego Bay")
            let rice = try await app.addProduct(store: kingston, name: "Parboiled Rice", price: 45_000)
            let ackee = try await app.addProduct(store: kingston, name: "Ackee", price: 30_000)
            let water = try await app.addProduct(store: kingston, name: "Spring Water", price: 8_000)
            for product in [rice, ackee] {
                _ = try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 10)", [mobay, product], on: app.database)
            }
            _ = try await sql(
                "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, $2, 48000)", [mobay, rice], on: app.database)
            let cookie = try await ShopFormTests.shopper(app, store: kingston)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            for product in [rice, ackee, water] {
                _ = try await app.form(
                    .post, "/shop/cart/items", ["_csrf": csrf, "productId": product, "mode": "add", "quantity": "1"], cookie: cookie)
            }

            let moved = try await app.form(.post, "/shop/store", ["_csrf": csrf, "storeId": mobay, "back": "/shop"], cookie: cookie)
            #expect(moved.status == .ok, "\(moved.status)")
            #expect(
                moved.text.contains("Your cart changed: Parboiled Rice: JMD 450.00 → JMD 480.00; Spring Water: not in stock at this store."),
                "\(moved.text)")
            #expect(!moved.text.contains("Ackee:"))
            // Choosing the same store again changes nothing and says only that.
            let same = try await app.form(.post, "/shop/store", ["_csrf": csrf, "storeId": mobay, "back": "/shop"], cookie: cookie)
            #expect(same.status == .seeOther && same.headers[.location] == "/shop?notice=store")
        }
    }

    @Test("a coupon short of its minimum spend says how much more to spend, on the cart")
    func couponShortfall() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 25_000)
            let made = try await app.request(
                .post, "/v1/stores/\(store)/coupons",
                json: [
                    "code": "SPEND1000", "amountOff": ["amount": 10_000, "currency": "JMD"],
                    "minimumSpend": ["amount": 100_000, "currency": "JMD"],
                ], token: manager.token)
            #expect(made.status == .created, "\(made.text)")
            let cookie = try await ShopFormTests.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            _ = try await app.form(.post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "1"], cookie: cookie)
            let refused = try await app.form(.post, "/shop/cart/coupon", ["_csrf": csrf, "code": "spend1000"], cookie: cookie)
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("Spend JMD 750.00 more to use this coupon: its minimum spend is JMD 1,000.00."), "\(refused.text)")
        }
    }
}
