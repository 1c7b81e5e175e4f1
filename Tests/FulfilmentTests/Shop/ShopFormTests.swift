import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The web shop without a browser's script (issue 28): every step is a form that posts and
/// redirects, so a phone with JavaScript off, or a form sent twice, still shops correctly; and
/// the shop keeps the console's guards (anti-forgery token, same-origin check, CSP, escaping).
@Suite("The web shop's forms, as a browser without script sends them")
struct ShopFormTests {
    /// Signs up through the shop's form and chooses `store`; answers the cookie.
    static func shopper(_ app: TestApp, store: String) async throws -> String {
        let email = "form-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signedUp = try await app.form(
            .post, "/shop/register",
            ["name": "Form Shopper", "email": email, "password": "correct horse", "passwordConfirmation": "correct horse"])
        #expect(signedUp.status == .seeOther)
        #expect(signedUp.headers[.location] == "/shop/stores?notice=welcome")
        let setCookie = try #require(signedUp.headers[.setCookie])
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        let cookie = String(setCookie.split(separator: ";")[0])
        let csrf = try await app.csrfToken(on: "/shop/stores", cookie: cookie)
        let chosen = try await app.form(.post, "/shop/store", ["_csrf": csrf, "storeId": store, "back": "/shop"], cookie: cookie)
        #expect(chosen.headers[.location] == "/shop?notice=store")
        return cookie
    }

    static func field(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("sign up, choose a store, add to the cart, check out: each a form and a redirect; the same checkout sent twice is one order")
    func withoutScript() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 10)
            let cookie = try await Self.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)

            let added = try await app.form(
                .post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "2", "back": "/shop?q=rice"],
                cookie: cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/shop?q=rice&notice=added")
            let again = try await app.form(
                .post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "1", "back": "/shop"], cookie: cookie)
            #expect(again.status == .seeOther)
            let cart = try await app.form(.get, "/shop/cart", cookie: cookie).text
            #expect(cart.contains("value=\"3\" class=\"qty\"") && cart.contains("JMD 1,350.00"))

            let checkout = try await app.form(.get, "/shop/checkout", cookie: cookie).text
            let attempt = try #require(Self.field("attempt", in: checkout))
            let slot = try #require(
                checkout.range(of: "name=\"pickupSlot\" id=\"slot-").map { String(checkout[$0.upperBound...].prefix { $0 != "\"" }) })
            let fields = ["_csrf": csrf, "attempt": attempt, "pickupSlot": slot]
            let first = try await app.form(.post, "/shop/checkout", fields, cookie: cookie)
            let second = try await app.form(.post, "/shop/checkout", fields, cookie: cookie)
            #expect(first.status == .seeOther && second.status == .seeOther)
            let location = try #require(first.headers[.location])
            #expect(location.hasPrefix("/orders/") && second.headers[.location] == location)
            let orders = try await sql("SELECT count(*) FROM orders WHERE idempotency_key = $1", [attempt], on: app.database)
            #expect(orders[0][0] == "1")
            // A new attempt is a new key.
            let next = try await app.form(.get, "/shop/checkout", cookie: cookie)
            #expect(next.status == .seeOther && next.headers[.location] == "/shop/cart")  // the cart was emptied by the order
            let order = try await app.form(.get, location, cookie: cookie).text
            #expect(order.contains("id=\"receipt-token\">FC1:"))
        }
    }

    @Test("a typo'd quantity is a sentence and changes nothing; a form without its token, or from another site, is refused")
    func refusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", onHand: 10)
            let cookie = try await Self.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            for typo in ["1O", "1e9", "-1", "100", "99999999999999999999"] {
                let refused = try await app.form(
                    .post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": typo], cookie: cookie)
                #expect(refused.status == .unprocessableContent, "\(typo): \(refused.status)")
                #expect(refused.text.contains("notice-refused") && refused.headers[.contentType] == "text/html; charset=utf-8")
            }
            #expect(try await app.form(.get, "/shop/cart", cookie: cookie).text.contains("cart-empty"))
            let forged = try await app.form(.post, "/shop/cart/items", ["productId": rice, "mode": "add", "quantity": "1"], cookie: cookie)
            #expect(forged.status == .forbidden)
            let elsewhere = try await app.form(
                .post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "1"], cookie: cookie,
                origin: "https://evil.example")
            #expect(elsewhere.status == .forbidden)
            let signUpElsewhere = try await app.form(
                .post, "/shop/register",
                ["name": "X", "email": "x@example.com", "password": "correct horse", "passwordConfirmation": "correct horse"],
                origin: "https://evil.example")
            #expect(signUpElsewhere.status == .forbidden)
            #expect(try await app.form(.get, "/shop/cart", cookie: cookie).text.contains("cart-empty"))
            // A redirect goes only within the shop.
            let away = try await app.form(
                .post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "1", "back": "//evil.example/x"],
                cookie: cookie)
            #expect(away.headers[.location] == "/shop/cart?notice=added")
        }
    }

    @Test("every shop page escapes what it shows, loads script only from the service and sends the CSP")
    func escapingAndPolicy() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let hostile = try await app.addProduct(store: store, name: "<script>alert(1)</script> Rice", onHand: 10)
            let cookie = try await Self.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            _ = try await app.form(.post, "/shop/cart/items", ["_csrf": csrf, "productId": hostile, "mode": "add", "quantity": "1"], cookie: cookie)
            _ = try await app.form(.post, "/shop/favourites/add", ["_csrf": csrf, "productId": hostile], cookie: cookie)
            let showingTheName = ["/shop?q=rice", "/shop/cart", "/shop/favourites", "/shop/locate?q=rice"]
            for path in showingTheName + ["/shop/checkout", "/shop/stores"] {
                let page = try await app.form(.get, path, cookie: cookie)
                #expect(page.status == .ok, "\(path): \(page.status)")
                #expect(!page.text.contains("<script>alert"), "\(path) shows the name unescaped")
                #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt; Rice") || !showingTheName.contains(path), "\(path)")
                let policy = page.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path): \(policy)")
                let inline = page.text.components(separatedBy: "<script").dropFirst().filter { !$0.hasPrefix(" src=") }
                #expect(inline.isEmpty, "\(path) has an inline script")
            }
        }
    }

    @Test("another customer's order page and live stream are not found")
    func ownOrdersOnly() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (_, order, _) = try await app.placeOrder(store: store)
            let cookie = try await Self.shopper(app, store: store)
            let id = try #require(order["id"].string)
            #expect(try await app.form(.get, "/orders/\(id)", cookie: cookie).status == .notFound)
            #expect(try await app.form(.get, "/orders/\(id)/events", cookie: cookie).status == .notFound)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            let arrival = try await app.form(.post, "/orders/\(id)/arrival", ["_csrf": csrf, "bay": "1"], cookie: cookie)
            #expect(arrival.status == .notFound)
        }
    }
}
