import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The shop's writes that only its pages make (issue 45): a visitor's cart line and the merge of
/// that cart at sign-in. While PostgreSQL refuses every commit (``CommitFault``), neither is a
/// success: the page says the store's database did not confirm it (503) and no table changed;
/// once commits work again, the same form succeeds.
@Suite("The shop's own writes when the database refuses the commit")
struct ShopCommitFailureTests {
    @Test("a visitor's cart line and the merge at sign-in: 503 and nothing stored while commits fail, done once they work")
    func visitorWrites() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", onHand: 50)
            let email = "fault-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await app.registerCustomer(email: email)
            let fault = try await app.installCommitFault()
            var browser = ShopVisitorTests.Browser()
            _ = try await browser.send(app, .post, "/shop/store", ["storeId": store, "back": "/shop"])

            /// `send` with commits refused: a 503 page, and no table changed.
            func refused(_ what: String, _ send: () async throws -> TestReply) async throws {
                try await fault.waitForEventsNumbered()
                try await fault.turnOn()
                let before = try await fault.snapshot()
                let reply = try await send()
                let after = try await fault.snapshot()
                try await fault.turnOff()
                #expect(reply.status == .serviceUnavailable, "\(what): \(reply.status) \(reply.headers[.location] ?? "")")
                // A lone statement's refused commit is unconfirmed (or, as its connection closes, the
                // database unreachable); a transaction's COMMIT says why.
                #expect(
                    ["did not confirm", "not reachable", "nothing was saved"].contains { reply.text.contains($0) },
                    "\(what) says why: \(reply.text.prefix(2000))")
                #expect(CommitFault.changed(before, after) == [], "\(what) changed a table although its commit failed")
            }

            try await refused("the first line of a guest cart") { try await ShopVisitorTests.add(app, &browser, rice, quantity: "2") }
            let added = try await ShopVisitorTests.add(app, &browser, rice, quantity: "2")
            #expect(added.status == .seeOther && added.headers[.location] == "/shop?notice=added", "\(added.text)")
            try await refused("another line") { try await ShopVisitorTests.add(app, &browser, rice, quantity: "1") }
            #expect(try await sql("SELECT sum(quantity) FROM guest_cart_items", on: app.database) == [["2"]])

            try await refused("signing in, which merges the cart") {
                try await browser.send(app, .post, "/signin", ["email": email, "password": "correct horse"])
            }
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["1"]], "the guest cart is still there")
            let signedIn = try await browser.send(app, .post, "/signin", ["email": email, "password": "correct horse"])
            #expect(signedIn.status == .seeOther, "\(signedIn.text)")
            let session = try #require(browser.cookies[ConsoleSession.cookieName])
            #expect(try await app.request(.get, "/v1/cart", token: session).json["items"].array.map { $0["quantity"].int } == [2])
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["0"]])
        }
    }
}
