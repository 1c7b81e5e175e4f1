import Crypto
import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Shopping before signing in (issue 45): a visitor reads the shop, chooses a store (a cookie)
/// and fills a guest cart (a row in PostgreSQL under an HttpOnly cookie's token); checkout asks
/// them to sign in or sign up, which merges the cart into the account's and comes back.
@Suite("A visitor shops before signing in, and their cart comes with them")
struct ShopVisitorTests {
    /// A browser without an account: the cookies it was given so far.
    struct Browser {
        var cookies: [String: String] = [:]
        var header: String? { cookies.isEmpty ? nil : cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }

        /// Keeps what a reply set and forgets what it cleared.
        mutating func keep(_ reply: TestReply) {
            for line in reply.headers[values: .setCookie] {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[1].isEmpty || line.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
            }
        }

        mutating func send(
            _ app: TestApp, _ method: HTTPRequest.Method, _ path: String, _ fields: [String: String] = [:], origin: String? = nil
        ) async throws -> TestReply {
            let reply = try await app.form(method, path, fields, cookie: header, origin: origin)
            keep(reply)
            return reply
        }
    }

    static func add(_ app: TestApp, _ browser: inout Browser, _ product: String, quantity: String = "1") async throws -> TestReply {
        try await browser.send(app, .post, "/shop/cart/items", ["productId": product, "mode": "add", "quantity": quantity, "back": "/shop"])
    }

    @Test("a visitor reads the shop, chooses a store, fills a cart, and checkout asks them to sign up and brings them back with it")
    func visitorToCustomer() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 10)
            var browser = Browser()

            // Without a store, the shop asks for one; the stores page is open to anyone.
            let first = try await browser.send(app, .get, "/shop")
            #expect(first.status == .seeOther && first.headers[.location] == "/shop/stores")
            let stores = try await browser.send(app, .get, "/shop/stores")
            #expect(stores.status == .ok && stores.text.contains("id=\"sign-in-link\""))
            let chosen = try await browser.send(app, .post, "/shop/store", ["storeId": store, "back": "/shop"])
            #expect(chosen.headers[.location] == "/shop?notice=store")
            #expect(browser.cookies[ShopVisit.storeCookie] == store)
            let shop = try await browser.send(app, .get, "/shop?q=rice")
            #expect(shop.status == .ok && shop.text.contains("Parboiled Rice"))

            // The first product makes the cart, under an HttpOnly cookie whose token the database never holds.
            let added = try await Self.add(app, &browser, rice, quantity: "2")
            #expect(added.status == .seeOther && added.headers[.location] == "/shop?notice=added", "\(added.text)")
            let setCookie = try #require(added.headers[values: .setCookie].first { $0.hasPrefix("fulfilment_cart=") })
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Max-Age=259200"))
            let token = try #require(browser.cookies[ShopVisit.cartCookie])
            let stored = try await sql("SELECT encode(token_hash, 'hex'), client_address FROM guest_carts", on: app.database)
            #expect(stored.count == 1 && stored[0][0] == SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined())
            _ = try await Self.add(app, &browser, rice)
            let cart = try await browser.send(app, .get, "/shop/cart")
            #expect(cart.text.contains("value=\"3\" class=\"qty\"") && cart.text.contains("Sign in to check out"))
            #expect(!cart.text.contains("id=\"coupon-form\"") && !cart.text.contains("name=\"substitution\""))

            // Checkout asks them to sign in, and to come back to checkout.
            let checkout = try await browser.send(app, .get, "/shop/checkout")
            #expect(checkout.status == .seeOther && checkout.headers[.location] == "/?next=/shop/checkout")
            let signIn = try await browser.send(app, .get, "/?next=/shop/checkout")
            #expect(signIn.text.contains("name=\"next\" value=\"/shop/checkout\""))
            #expect(signIn.text.contains("href=\"/shop/register?next=/shop/checkout\""))

            // They sign up: the cart is the account's now, the guest cart gone, and on to checkout.
            let email = "visitor-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let signedUp = try await browser.send(
                app, .post, "/shop/register",
                [
                    "name": "Visiting Shopper", "email": email, "password": "correct horse", "passwordConfirmation": "correct horse",
                    "next": "/shop/checkout",
                ])
            #expect(signedUp.status == .seeOther && signedUp.headers[.location] == "/shop/checkout", "\(signedUp.text)")
            #expect(browser.cookies[ShopVisit.cartCookie] == nil, "the spent cart's cookie is cleared")
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["0"]])
            let session = try #require(browser.cookies[ConsoleSession.cookieName])
            let account = try await app.request(.get, "/v1/cart", token: session).json
            #expect(account["storeId"].string == store)
            #expect(account["items"].array.map { $0["quantity"].int } == [3])
            let page = try await browser.send(app, .get, "/shop/checkout")
            #expect(page.status == .ok && page.text.contains("id=\"checkout-form\""))
        }
    }

    @Test("signing in merges into the account's cart: quantities added and capped at 99, what its store cannot sell named")
    func mergeOnSignIn() async throws {
        try await withApp { app in
            let home = try await app.createStore(name: "Home")
            let away = try await app.createStore(name: "Away")
            let rice = try await app.addProduct(store: home, name: "Parboiled Rice", onHand: 500)
            let jerk = try await app.addProduct(store: away, name: "Jerk Seasoning", onHand: 50)
            _ = try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 500)", [away, rice], on: app.database)
            let email = "merge-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let customer = try await app.registerCustomer(email: email)
            try await app.fillCart(customer, store: home, [(rice, 95)])

            var browser = Browser()
            _ = try await browser.send(app, .post, "/shop/store", ["storeId": away, "back": "/shop"])
            _ = try await Self.add(app, &browser, rice, quantity: "10")
            _ = try await Self.add(app, &browser, jerk, quantity: "2")
            let signedIn = try await browser.send(app, .post, "/signin", ["email": email, "password": "correct horse"])
            let location = try #require(signedIn.headers[.location])
            #expect(location == "/shop/cart?notice=merged&missing=\(jerk)", "\(location)")
            let cart = try await browser.send(app, .get, location)
            #expect(cart.text.contains("Not added from the cart you filled before signing in: Jerk Seasoning."), "\(cart.text)")
            let account = try await app.request(.get, "/v1/cart", token: customer.token).json
            #expect(account["storeId"].string == home, "the account's cart keeps its store")
            #expect(account["items"].array.map { $0["quantity"].int } == [99])
        }
    }

    @Test("a guest cart is bounded: 50 products, 20 new carts an address a day, 3 days unused; a typo'd quantity changes nothing")
    func bounds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            var products: [String] = []
            for index in 0..<51 { products.append(try await app.addProduct(store: store, name: "Product \(index)")) }
            var browser = Browser()
            _ = try await browser.send(app, .post, "/shop/store", ["storeId": store, "back": "/shop"])
            for product in products.prefix(50) { #expect(try await Self.add(app, &browser, product).status == .seeOther) }
            let full = try await Self.add(app, &browser, products[50])
            #expect(full.status == .conflict && full.text.contains("at most 50 products"), "\(full.status)")
            for typo in ["1O", "1e9", "-1", "100", "9223372036854775808"] {
                let refused = try await Self.add(app, &browser, products[0], quantity: typo)
                #expect(refused.status.code >= 400 && refused.status.code < 500, "\(typo): \(refused.status)")
            }
            #expect(try await sql("SELECT sum(quantity) FROM guest_cart_items", on: app.database) == [["50"]])

            // 19 more carts from this address today, then no more.
            for _ in 0..<19 {
                var other = Browser(cookies: [ShopVisit.storeCookie: store])
                #expect(try await Self.add(app, &other, products[0]).status == .seeOther)
            }
            var late = Browser(cookies: [ShopVisit.storeCookie: store])
            let refused = try await Self.add(app, &late, products[0])
            #expect(refused.status == .tooManyRequests, "\(refused.status)")
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["20"]])

            // Unused for three days, a cart is gone: reads find it empty, and the next new cart takes it away.
            _ = try await sql(
                "UPDATE guest_carts SET updated_at = now() - interval '3 days 1 minute', created_at = now() - interval '4 days'", on: app.database)
            let emptied = try await browser.send(app, .get, "/shop/cart")
            #expect(emptied.text.contains("id=\"cart-empty\""))
            #expect(try await Self.add(app, &late, products[1]).status == .seeOther)
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["1"]])
        }
    }

    @Test("a visitor's form from another site is refused; pages that need an account send a visitor to sign in")
    func visitorGuards() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store)
            var browser = Browser(cookies: [ShopVisit.storeCookie: store])
            let forged = try await browser.send(
                app, .post, "/shop/cart/items", ["productId": rice, "mode": "add", "quantity": "1"], origin: "https://evil.example")
            #expect(forged.status == .forbidden)
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["0"]])
            for path in ["/shop/favourites", "/orders"] {
                let reply = try await browser.send(app, .get, path)
                #expect(reply.status == .seeOther && reply.headers[.location]?.hasPrefix("/") == true, "\(path)")
            }
            let coupon = try await browser.send(app, .post, "/shop/cart/coupon", ["code": "WELCOME10"])
            #expect(coupon.status == .seeOther)
            // A store cookie naming no store is no store.
            var lost = Browser(cookies: [ShopVisit.storeCookie: UUID().uuidString])
            #expect(try await lost.send(app, .get, "/shop").headers[.location] == "/shop/stores")
        }
    }
}
