import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The console's sessions and protections, over plain HTTP: cookies, anti-forgery, the access
/// policy on pages, security headers, cached assets.
@Suite("Console sessions and access")
struct ConsoleAccessTests {
    @Test("signing in sets an HttpOnly, SameSite=Strict session cookie; signing out ends the session for the API too")
    func cookieSession() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.storeAccount(.staff, store: store)
            let signIn = try await app.form(.post, "/signin", ["email": staff.email, "password": staff.password])
            #expect(signIn.status == .seeOther)
            #expect(signIn.headers[.location] == "/console/desk")
            let setCookie = try #require(signIn.headers[.setCookie])
            #expect(setCookie.hasPrefix("fulfilment_session="))
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))
            #expect(!setCookie.contains("Secure"))
            let cookie = String(setCookie.split(separator: ";")[0])
            let token = String(cookie.dropFirst("fulfilment_session=".count))

            // The cookie is the same session the API knows.
            #expect(try await app.request(.get, "/v1/me", token: token).status == .ok)
            #expect(try await app.form(.get, "/console/desk", cookie: cookie).status == .ok)

            let csrf = try await app.csrfToken(on: "/console/desk", cookie: cookie)
            let signOut = try await app.form(.post, "/signout", ["_csrf": csrf], cookie: cookie)
            #expect(signOut.status == .seeOther)
            #expect(signOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await app.request(.get, "/v1/me", token: token).status == .unauthorized)
            let after = try await app.form(.get, "/console/desk", cookie: cookie)
            #expect(after.status == .seeOther)
            #expect(after.headers[.location] == "/")
        }
    }

    @Test("a wrong password shows the sign-in page again with a message, not JSON")
    func wrongPassword() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.storeAccount(.staff, store: store)
            let reply = try await app.form(.post, "/signin", ["email": staff.email, "password": "wrong password"])
            #expect(reply.status == .unauthorized)
            #expect(reply.headers[.contentType] == "text/html; charset=utf-8")
            #expect(reply.text.contains("The email or password is wrong."))
            #expect(reply.headers[.setCookie] == nil)
        }
    }

    @Test("a form without this session's token, or from another origin, is refused and changes nothing")
    func forgery() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.storeAccount(.staff, store: store)
            let cookie = try await app.consoleCookie(staff)
            let staffAPI = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            #expect(try await app.transition(id, to: "packaged", by: staffAPI).status == .ok)
            let fields = ["token": order["pickupToken"].string!, "orderId": id, "amount": "1500", "currency": "JMD", "method": "cash"]

            let missing = try await app.form(.post, "/console/desk/payments", fields, cookie: cookie)
            #expect(missing.status == .forbidden)
            var forged = fields
            forged["_csrf"] = "not-the-token"
            #expect(try await app.form(.post, "/console/desk/payments", forged, cookie: cookie).status == .forbidden)
            let csrf = try await app.csrfToken(on: "/console/desk", cookie: cookie)
            var genuine = fields
            genuine["_csrf"] = csrf
            let elsewhere = try await app.form(.post, "/console/desk/payments", genuine, cookie: cookie, origin: "https://evil.example")
            #expect(elsewhere.status == .forbidden)
            #expect(try await sql("SELECT payment_status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "unpaid")
            // A sign-in posted from another site is refused too.
            let signIn = try await app.form(.post, "/signin", ["email": staff.email, "password": staff.password], origin: "https://evil.example")
            #expect(signIn.status == .forbidden)
            #expect(signIn.headers[.setCookie] == nil)

            // Its own origin is accepted (the test client calls the service "localhost").
            let accepted = try await app.form(.post, "/console/desk/payments", genuine, cookie: cookie, origin: "http://localhost")
            #expect(accepted.status == .ok)
            #expect(try await sql("SELECT payment_status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "paid")
        }
    }

    @Test("a page is refused exactly when its API call would be: signed out, customer, other store")
    func accessPolicy() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let signedOut = try await app.form(.get, "/console/desk")
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.location] == "/")

            let (customer, _) = try await app.customerAccount()
            let customerCookie = try await app.consoleCookie(customer)
            let refused = try await app.form(.get, "/console/desk", cookie: customerCookie)
            #expect(refused.status == .forbidden)
            #expect(refused.headers[.contentType] == "text/html; charset=utf-8")
            #expect(!refused.text.contains("\"error\""))
            let unknown = try await app.form(.get, "/console/no-such-page", cookie: customerCookie)
            #expect(unknown.status == .notFound)
            #expect(unknown.headers[.contentType] == "text/html; charset=utf-8")
            let home = try await app.form(.get, "/", cookie: customerCookie)
            #expect(home.headers[.location] == "/shop")

            // Staff of another store scanning this store's order: the API's wrong_store, as a verdict.
            let otherStore = try await app.createStore()
            let other = try await app.storeAccount(.staff, store: otherStore)
            let otherCookie = try await app.consoleCookie(other)
            let (_, order, _) = try await app.placeOrder(store: store)
            let csrf = try await app.csrfToken(on: "/console/desk", cookie: otherCookie)
            let scan = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": order["pickupToken"].string!], cookie: otherCookie)
            #expect(scan.status == .ok)
            #expect(scan.text.contains("data-verdict=\"wrong_store\""))
            #expect(!scan.text.contains("Test Customer"))
        }
    }

    @Test("pages carry a CSP with no inline script; assets are cached; text says utf-8")
    func headers() async throws {
        try await withApp { app in
            let page = try await app.form(.get, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let csp = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!])
            #expect(csp.contains("script-src 'self'"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(!page.text.contains("<script>"))
            #expect(!page.text.contains(" onclick="))

            let css = try #require(page.text.range(of: "/console/assets/console.css?v=")).lowerBound
            let href = String(page.text[css...].prefix { $0 != "\"" })
            let asset = try await app.form(.get, href)
            #expect(asset.status == .ok)
            #expect(asset.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(asset.headers[.contentType] == "text/css; charset=utf-8")
            let etag = try #require(asset.headers[.eTag])
            let again = try await app.request(.get, href, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test("the .txt and .html pick sheets say charset=utf-8, so × and — arrive intact")
    func pickSheetCharset() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let customer = try await app.registerCustomer()
            let product = try await app.createProduct(store: store, name: "Ackee — tinned")
            _ = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product, 2)])
            let created = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
            let id = try #require(created.json["id"].string, "\(created.status) \(created.text)")
            let text = try await app.request(.get, "/v1/pick-lists/\(id).txt", token: staff.token)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(text.text.contains("Ackee — tinned"))
            let html = try await app.request(.get, "/v1/pick-lists/\(id).html", token: staff.token)
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
        }
    }

    @Test("behind TLS (FULFILMENT_SECURE_COOKIES) the session cookie is Secure too")
    func secureCookie() {
        let secure = ConsoleSession.cookie(token: "t", secure: true).description
        #expect(secure.contains("Secure"))
        #expect(secure.contains("HttpOnly"))
        #expect(secure.contains("SameSite=Strict"))
        #expect(!ConsoleSession.cookie(token: "t", secure: false).description.contains("Secure"))
    }
}
