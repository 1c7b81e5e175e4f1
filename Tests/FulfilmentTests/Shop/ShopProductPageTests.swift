import Foundation
import HTTPTypes
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A product's own page (issue 45): a stable address linked from every listing, all its images
/// with their text alternatives (cached by the browser), the price with a sale, stock in words,
/// where it is, schema.org data for search engines, and reviews a buyer writes and others rate.
@Suite("A product's page in the shop")
struct ShopProductPageTests {
    /// The JSON-LD block of a page, decoded.
    static func structuredData(_ page: String) throws -> JSONValue {
        let start = try #require(page.range(of: "<script type=\"application/ld+json\" id=\"product-data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return try JSONDecoder().decode(JSONValue.self, from: Data(page[start.upperBound..<end.lowerBound].utf8))
    }

    @Test("a visitor follows a listing's link to the product: its images in order, the sale, 'Only 2 left', where it is, and schema.org data")
    func visitorReadsTheProduct() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let aisle = try await app.createAisle(store: store, code: "6", name: "Rice & Grains", walkOrder: 6)
            let rice = try await app.createProduct(
                store: store, name: "Parboiled Rice 2 kg", price: 45_000, onHand: 2, aisle: aisle, bay: 1, shelf: "B")
            _ = try await sql(
                """
                INSERT INTO product_images (product_id, position, alt_text, content_type, bytes, sha256)
                SELECT $1, n, CASE n WHEN 0 THEN 'The 2 kg bag, front' ELSE '' END, 'image/png', decode($2, 'hex'), sha256(decode($2, 'hex') || n::text::bytea)
                FROM generate_series(0, 1) n
                """, [rice, try QRCode.encode("rice").png(scale: 2).map { String(format: "%02x", $0) }.joined()], on: app.database)
            _ = try await sql(
                "INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at) VALUES ($1, $2, 40000, now() - interval '1 hour', now() + interval '2 days')",
                [store, rice], on: app.database)
            let slug = try #require(try await sql("SELECT slug FROM products WHERE id = $1", [rice], on: app.database)[0][0])
            #expect(slug.hasPrefix("parboiled-rice-2-kg-"))

            let listing = try await app.form(.get, "/shop?q=rice", cookie: "\(ShopVisit.storeCookie)=\(store)")
            #expect(listing.text.contains("<a href=\"/shop/products/\(slug)\">Parboiled Rice 2 kg</a>"), "\(listing.text)")
            let page = try await app.form(.get, "/shop/products/\(slug)", cookie: "\(ShopVisit.storeCookie)=\(store)")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("<title>Parboiled Rice 2 kg · Fulfilment</title>"))
            #expect(text.contains("src=\"/v1/products/\(rice)/images/0\" alt=\"The 2 kg bag, front\""))
            #expect(text.contains("src=\"/v1/products/\(rice)/images/1\" alt=\"Parboiled Rice 2 kg, picture 2\""))
            #expect(
                text.contains(
                    "<strong id=\"price\">JMD 400.00</strong> <s id=\"regular-price\"><span class=\"visually-hidden\">was </span>JMD 450.00</s>"))
            #expect(text.contains("id=\"stock\">Only 2 left</p>"))
            #expect(text.contains("At Half Way Tree: Aisle 6 (Rice &amp; Grains), bay 1, shelf B"))
            let data = try Self.structuredData(text)
            #expect(data["@type"].string == "Product" && data["name"].string == "Parboiled Rice 2 kg")
            #expect(data["offers"]["price"].string == "400.00" && data["offers"]["priceCurrency"].string == "JMD")
            #expect(data["offers"]["availability"].string == "https://schema.org/InStock")

            // The images are the same for everyone: cacheable, and not sent again when unchanged.
            let image = try await app.request(.get, "/v1/products/\(rice)/images/1")
            #expect(image.status == .ok && image.headers[.cacheControl] == "public, max-age=3600")
            let etag = try #require(image.headers[.eTag])
            let again = try await app.request(.get, "/v1/products/\(rice)/images/1", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.isEmpty)
            #expect(try await app.request(.get, "/v1/products/\(rice)/images/2").status == .notFound)

            // A rename keeps the address.
            _ = try await sql("UPDATE products SET name = 'Rice, parboiled' WHERE id = $1", [rice], on: app.database)
            #expect(try await app.form(.get, "/shop/products/\(slug)").text.contains("<h1>Rice, parboiled</h1>"))
            let missing = try await app.form(.get, "/shop/products/no-such-product-00000000")
            #expect(missing.status == .notFound && missing.headers[.contentType]?.hasPrefix("text/html") == true)
        }
    }

    @Test("out of stock: a customer asks to be told when it is back; a visitor is asked to sign in")
    func tellMeWhenItsBack() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let ackee = try await app.addProduct(store: store, name: "Ackee 540g", onHand: 0)
            let slug = try #require(try await sql("SELECT slug FROM products WHERE id = $1", [ackee], on: app.database)[0][0])
            let visitor = try await app.form(.get, "/shop/products/\(slug)", cookie: "\(ShopVisit.storeCookie)=\(store)").text
            #expect(visitor.contains("id=\"stock\">Out of stock</p>") && visitor.contains("to be told when it is back"))
            #expect(try Self.structuredData(visitor)["offers"]["availability"].string == "https://schema.org/OutOfStock")
            #expect(!visitor.contains("id=\"add-to-cart\""))

            let cookie = try await ShopFormTests.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop/products/\(slug)", cookie: cookie)
            let asked = try await app.form(
                .post, "/shop/favourites/add", ["_csrf": csrf, "productId": ackee, "back": "/shop/products/\(slug)"], cookie: cookie)
            #expect(asked.headers[.location] == "/shop/products/\(slug)?notice=favourite")
            let after = try await app.form(.get, "/shop/products/\(slug)", cookie: cookie).text
            #expect(after.contains("We will tell you when it is back"))
        }
    }

    @Test("a buyer reviews from the page; another marks it helpful and reports it; a non-buyer and a typo'd rating are sentences")
    func reviews() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (buyer, product) = try await app.shopper(at: store)
            let order = try await app.checkout(buyer)
            try await app.collect(order.json, by: staff)
            let slug = try #require(try await sql("SELECT slug FROM products WHERE id = $1", [product], on: app.database)[0][0])
            let path = "/shop/products/\(slug)"
            let cookie = ShopOrderPageTests.cookie(buyer)
            let csrf = try await app.csrfToken(on: path, cookie: cookie)

            let typo = try await app.form(.post, path + "/review", ["_csrf": csrf, "rating": "5e9", "body": "Lovely"], cookie: cookie)
            #expect(typo.status == .unprocessableContent, "\(typo.status)")
            #expect(try await sql("SELECT count(*) FROM product_reviews", on: app.database) == [["0"]])
            let posted = try await app.form(
                .post, path + "/review", ["_csrf": csrf, "rating": "4", "body": "Cooks *well*. <script>alert(1)</script>", "back": path],
                cookie: cookie)
            #expect(posted.headers[.location] == path + "?notice=reviewed", "\(posted.text)")
            let page = try await app.form(.get, path, cookie: cookie).text
            #expect(page.contains("Cooks <em>well</em>.") && !page.contains("<script>alert"))
            #expect(page.contains("4.0 out of 5 from 1 review"))
            #expect(page.contains("<option value=\"4\" selected>"), "the buyer edits their own review")

            let stranger = try await app.registerCustomer()
            let strangerCookie = ShopOrderPageTests.cookie(stranger)
            let strangerCSRF = try await app.csrfToken(on: path, cookie: strangerCookie)
            let notBought = try await app.form(.post, path + "/review", ["_csrf": strangerCSRF, "rating": "1"], cookie: strangerCookie)
            #expect(notBought.status.code >= 400 && notBought.status.code < 500, "\(notBought.status)")
            let review = try #require(try await sql("SELECT id FROM product_reviews", on: app.database)[0][0])
            let helpful = try await app.form(.post, "/shop/reviews/\(review)/helpful", ["_csrf": strangerCSRF, "back": path], cookie: strangerCookie)
            #expect(helpful.headers[.location] == path + "?notice=helpful")
            let reported = try await app.form(
                .post, "/shop/reviews/\(review)/report", ["_csrf": strangerCSRF, "reason": "Spam", "back": path], cookie: strangerCookie)
            #expect(reported.headers[.location] == path + "?notice=reported")
            #expect(try await sql("SELECT helpful_count FROM product_reviews", on: app.database) == [["1"]])
            #expect(try await sql("SELECT count(*) FROM content_reports", on: app.database) == [["1"]])
            let byHelpful = try await app.form(.get, path + "?reviews=helpful", cookie: strangerCookie).text
            #expect(byHelpful.contains("1 person found this helpful"))
            let badCursor = try await app.form(.get, path + "?cursor=bm90LWEtY3Vyc29y", cookie: strangerCookie)
            #expect(badCursor.status == .unprocessableContent, "\(badCursor.status)")
            #expect(badCursor.text.contains("id=\"reviews\""), "the page with its first reviews, and the sentence")
        }
    }
}
