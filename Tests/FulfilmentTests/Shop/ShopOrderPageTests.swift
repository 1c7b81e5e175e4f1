import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A customer's order page after the store has worked on it (issue 45): each line says what
/// happened to it and the lines add up to the total; and from the page, without script, the
/// customer keeps or refuses a substitute, moves the pickup time, cancels, and buys again.
@Suite("The customer's order page: what the store did, and what the customer may still change")
struct ShopOrderPageTests {
    /// The browser's cookie for an API session: the same session.
    static func cookie(_ session: Session) -> String { "fulfilment_session=\(session.token)" }

    /// Every amount in the order's lines table, in minor units.
    static func lineAmounts(_ page: String) -> [Int] {
        guard let start = page.range(of: "id=\"order-lines\""), let end = page.range(of: "</table>", range: start.upperBound..<page.endIndex)
        else { return [] }
        let table = page[start.upperBound..<end.lowerBound]
        return table.components(separatedBy: "<td>JMD ").dropFirst().compactMap { cell in
            Int(cell.prefix { $0 != "<" }.filter { $0.isNumber })
        }
    }

    @Test("a short pick and a kept substitute are said on their lines, and the lines add up to the total, on the page and in the API")
    func shortAndSubstituted() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(substitutePrice: 1_200)
            let given = try await app.substitute(shop, quantity: 1)
            let substitution = try #require(given.json["id"].string, "\(given.text)")
            let cookie = Self.cookie(shop.customer)
            let page = try await app.form(.get, "/orders/\(shop.orderID)", cookie: cookie).text
            #expect(page.contains("Instead of Ackee (Brand A): the store suggests this."), "\(page)")

            // The customer keeps it from the page, without script.
            let csrf = try await app.csrfToken(on: "/orders/\(shop.orderID)", cookie: cookie)
            let kept = try await app.form(
                .post, "/orders/\(shop.orderID)/substitutions/\(substitution)", ["_csrf": csrf, "decision": "accept"], cookie: cookie)
            #expect(kept.status == .seeOther && kept.headers[.location] == "/orders/\(shop.orderID)?notice=kept", "\(kept.text)")

            // One of the two tins left is found; the list closes the line short and packs the order.
            let pick = try await app.request(
                .post, "/v1/pick-lists/\(shop.pickList)/picks",
                json: ["orderId": .string(shop.orderID), "productId": .string(shop.ackee), "quantity": 1, "short": true], token: shop.staff.token)
            #expect(pick.status == .ok, "\(pick.text)")
            let done = try await app.request(.post, "/v1/pick-lists/\(shop.pickList)/complete", token: shop.staff.token)
            #expect(done.status == .ok, "\(done.text)")

            let order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
            let total = try #require(order["total"]["amount"].int)
            #expect(total == 2_000)
            #expect(order["lines"].array.compactMap { $0["amount"]["amount"].int }.reduce(0, +) == total)
            let ackee = try #require(order["lines"].array.first { $0["productId"].string == shop.ackee })
            #expect(ackee["held"].int == 1 && ackee["amount"]["amount"].int == 1_000)

            let packed = try await app.form(.get, "/orders/\(shop.orderID)", cookie: cookie).text
            #expect(packed.contains("Short: 1 of 2 picked."), "\(packed)")
            #expect(packed.contains("Instead of Ackee (Brand A): you kept it."))
            #expect(Self.lineAmounts(packed).reduce(0, +) == total)
            #expect(packed.contains("Total <strong>JMD 20.00</strong> · to pay at the desk"))
            // The lines and totals are inside what the live tracker draws again.
            let live = try #require(packed.range(of: "id=\"order-live\""))
            #expect(packed.range(of: "id=\"order-lines\"")!.lowerBound > live.lowerBound)
            #expect(packed.range(of: "id=\"order-total\"")!.lowerBound < packed.range(of: "</section>\n<p><a href=\"/orders\">")!.lowerBound)
        }
    }

    @Test("a refused substitute is struck through and not charged; an answer given twice, or not one of the two, is a sentence")
    func refusedSubstitute() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop()
            let substitution = try #require(try await app.substitute(shop, quantity: 2).json["id"].string)
            let cookie = Self.cookie(shop.customer)
            let csrf = try await app.csrfToken(on: "/orders/\(shop.orderID)", cookie: cookie)
            let path = "/orders/\(shop.orderID)/substitutions/\(substitution)"

            let typo = try await app.form(.post, path, ["_csrf": csrf, "decision": "yes please"], cookie: cookie)
            #expect(typo.status == .unprocessableContent || typo.status == .badRequest, "\(typo.status)")
            #expect(typo.text.contains("Choose to keep the substitute or to refuse it."))
            // Two tins of the 800 substitute and the one ackee left.
            #expect(try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json["total"]["amount"].int == 2_600)

            let refused = try await app.form(.post, path, ["_csrf": csrf, "decision": "reject"], cookie: cookie)
            #expect(refused.headers[.location] == "/orders/\(shop.orderID)?notice=refused")
            let page = try await app.form(.get, "/orders/\(shop.orderID)", cookie: cookie).text
            #expect(page.contains("<s>Ackee (Brand B)</s>") && page.contains("you refused it. Not charged."), "\(page)")
            #expect(page.contains("Total <strong>JMD 10.00</strong>"))
            #expect(Self.lineAmounts(page).reduce(0, +) == 1_000)

            let again = try await app.form(.post, path, ["_csrf": csrf, "decision": "accept"], cookie: cookie)
            #expect(again.status == .conflict, "\(again.status)")
            #expect(try await app.unbalancedStock(store: shop.store).isEmpty)
        }
    }

    @Test("checkout chooses no time for the customer, shows a day at a time, and keeps the customer's choice after a refusal")
    func checkoutChoosesNothing() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 5)
            let cookie = try await ShopFormTests.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            _ = try await app.form(.post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "2"], cookie: cookie)

            let page = try await app.form(.get, "/shop/checkout", cookie: cookie).text
            #expect(!page.contains(" checked"), "a time is chosen before the customer chose one")
            #expect(page.components(separatedBy: "<fieldset class=\"slots\"").count == 2, "one day's times at a time")
            #expect(page.components(separatedBy: "<li><a href=\"/shop/checkout?day=").count >= 7, "about a week of days to choose from")
            let slots = page.components(separatedBy: "name=\"pickupSlot\" id=\"slot-").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            let chosen = try #require(slots.last)

            // The shelf empties before the customer presses "Place order": refused, and their time stays chosen.
            _ = try await sql("UPDATE stock SET on_hand = 1 WHERE product_id = $1", [rice], on: app.database)
            let attempt = try #require(ShopFormTests.field("attempt", in: page))
            let refused = try await app.form(
                .post, "/shop/checkout", ["_csrf": csrf, "attempt": attempt, "pickupSlot": chosen], cookie: cookie)
            #expect(refused.status == .conflict, "\(refused.status)")
            #expect(refused.text.contains("id=\"slot-\(chosen)\" value=\"\(chosen)\" required checked"), "the choice is not kept")
            #expect(refused.text.components(separatedBy: " checked").count == 2)

            // Another day, by its link.
            let days = page.components(separatedBy: "<li><a href=\"/shop/checkout?day=").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            let later = try #require(days.last)
            let other = try await app.form(.get, "/shop/checkout?day=\(later)", cookie: cookie).text
            #expect(other.contains("id=\"slots-\(later)\""))
            #expect(other.contains("id=\"day-\(later)\" aria-current=\"date\""))
        }
    }

    @Test("the customer moves the pickup time from the page and gets a new code; a typo'd or full time changes nothing")
    func moveSlot() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 1))
            let (customer, _) = try await app.shopper(at: store)
            let offered = try await app.pickupSlots(store: store).json["items"].array.filter { $0["remaining"].int ?? 0 > 0 }
            let first = try #require(offered.first?["start"].string)
            let placed = try await app.checkout(customer, slot: first)
            #expect(placed.status == .created, "\(placed.text)")
            let order = try #require(placed.json["id"].string)
            let token = placed.json["pickupToken"].string
            let cookie = Self.cookie(customer)

            let page = try await app.form(.get, "/orders/\(order)", cookie: cookie).text
            #expect(page.contains("href=\"/orders/\(order)/slot\""))
            let chooser = try await app.form(.get, "/orders/\(order)/slot", cookie: cookie).text
            #expect(chooser.contains("id=\"slot-now\"") && !chooser.contains(" checked"))
            let csrf = try await app.csrfToken(on: "/orders/\(order)/slot", cookie: cookie)

            for typo in ["1e9", "-1", "abc", "99999999999999999999"] {
                let refused = try await app.form(.post, "/orders/\(order)/slot", ["_csrf": csrf, "pickupSlot": typo], cookie: cookie)
                #expect(refused.status.code >= 400 && refused.status.code < 500, "\(typo): \(refused.status)")
            }
            // A time someone else just filled.
            let other = try await app.registerCustomer()
            let product = try await app.addProduct(store: store)
            try await app.fillCart(other, store: store, [(product, 1)])
            let second = try #require(offered.dropFirst().first?["start"].string)
            #expect(try await app.checkout(other, slot: second).status == .created)
            let secondSeconds = String(Int(try Date(second, strategy: .iso8601).timeIntervalSince1970))
            let full = try await app.form(.post, "/orders/\(order)/slot", ["_csrf": csrf, "pickupSlot": secondSeconds], cookie: cookie)
            #expect(full.status == .conflict, "\(full.status)")
            #expect(try await app.request(.get, "/v1/orders/\(order)", token: customer.token).json["pickupToken"].string == token)

            // Its own time again: nothing changes, and the page says so rather than "your code is new".
            let firstSeconds = String(Int(try Date(first, strategy: .iso8601).timeIntervalSince1970))
            let unmoved = try await app.form(.post, "/orders/\(order)/slot", ["_csrf": csrf, "pickupSlot": firstSeconds], cookie: cookie)
            #expect(unmoved.status == .seeOther && unmoved.headers[.location] == "/orders/\(order)?notice=unmoved", "\(unmoved.text)")
            #expect(try await app.request(.get, "/v1/orders/\(order)", token: customer.token).json["pickupToken"].string == token)
            let third = try #require(offered.dropFirst(2).first?["start"].string)
            let thirdSeconds = String(Int(try Date(third, strategy: .iso8601).timeIntervalSince1970))
            let moved = try await app.form(.post, "/orders/\(order)/slot", ["_csrf": csrf, "pickupSlot": thirdSeconds], cookie: cookie)
            #expect(moved.status == .seeOther && moved.headers[.location] == "/orders/\(order)?notice=moved", "\(moved.text)")
            let after = try await app.request(.get, "/v1/orders/\(order)", token: customer.token).json
            #expect(after["pickupSlot"]["start"].string == third)
            #expect(after["pickupToken"].string != token)
        }
    }

    @Test("cancelling asks first, then cancels and gives the stock back; a second try is a sentence")
    func cancel() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, product) = try await app.shopper(at: store)
            let placed = try await app.checkout(customer)
            let order = try #require(placed.json["id"].string)
            let cookie = Self.cookie(customer)

            let ask = try await app.form(.get, "/orders/\(order)/cancel", cookie: cookie)
            #expect(ask.status == .ok && ask.text.contains("Yes, cancel the order"))
            #expect(try await app.stock(store: store, product: product).reserved == 1)
            let csrf = try await app.csrfToken(on: "/orders/\(order)/cancel", cookie: cookie)
            let cancelled = try await app.form(.post, "/orders/\(order)/cancel", ["_csrf": csrf], cookie: cookie)
            #expect(cancelled.headers[.location] == "/orders/\(order)?notice=cancelled")
            #expect(try await app.stock(store: store, product: product).reserved == 0)
            let page = try await app.form(.get, "/orders/\(order)?notice=cancelled", cookie: cookie).text
            #expect(page.contains("Your order is cancelled.") && page.contains("cancelled: nothing to pay"))
            #expect(!page.contains("id=\"cancel-order\""))

            let twice = try await app.form(.post, "/orders/\(order)/cancel", ["_csrf": csrf], cookie: cookie)
            #expect(twice.status == .conflict)
        }
    }

    @Test("buy again fills the cart in one go and names what the store cannot sell now")
    func buyAgain() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let customer = try await app.registerCustomer()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", onHand: 10)
            let ackee = try await app.addProduct(store: store, name: "Ackee", onHand: 3)
            try await app.fillCart(customer, store: store, [(rice, 2), (ackee, 3)])
            let order = try #require(try await app.checkout(customer).json["id"].string)
            let cookie = Self.cookie(customer)
            let csrf = try await app.csrfToken(on: "/orders/\(order)", cookie: cookie)

            let again = try await app.form(.post, "/orders/\(order)/buy-again", ["_csrf": csrf], cookie: cookie)
            #expect(again.status == .ok)
            #expect(again.text.contains("Added to your cart. Not added: Ackee (out of stock)."), "\(again.text)")
            let cart = try await app.request(.get, "/v1/cart", token: customer.token).json
            #expect(cart["items"].array.map { $0["productId"].string } == [rice])
            #expect(cart["items"][0]["quantity"].int == 2)
        }
    }

    @Test("another customer's order: every form of its page is not found and changes nothing")
    func anotherCustomersOrder() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop()
            let substitution = try #require(try await app.substitute(shop, quantity: 1).json["id"].string)
            let stranger = try await app.registerCustomer()
            let cookie = Self.cookie(stranger)
            let csrf = try await app.csrfToken(on: "/orders", cookie: cookie)
            let id = shop.orderID
            let posts: [(String, [String: String])] = [
                ("/orders/\(id)/substitutions/\(substitution)", ["decision": "reject"]), ("/orders/\(id)/cancel", [:]),
                ("/orders/\(id)/slot", ["pickupSlot": "1800000000"]), ("/orders/\(id)/buy-again", [:]),
            ]
            for (path, fields) in posts {
                let reply = try await app.form(.post, path, fields.merging(["_csrf": csrf]) { $1 }, cookie: cookie)
                #expect(reply.status == .notFound, "\(path): \(reply.status)")
            }
            for path in ["/orders/\(id)/slot", "/orders/\(id)/cancel"] {
                #expect(try await app.form(.get, path, cookie: cookie).status == .notFound, "\(path)")
            }
            let order = try await app.request(.get, "/v1/orders/\(id)", token: shop.customer.token).json
            #expect(order["status"].string == "pending" && order["total"]["amount"].int == 2_800)
            #expect(order["lines"].array.compactMap { $0["substitute"]["status"].string } == ["proposed"])
            #expect(try await app.request(.get, "/v1/cart", token: stranger.token).json["items"].array.isEmpty)
        }
    }
}
