import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A number a client puts in a form or a query string is bounded by its meaning before anything
/// computes with it (issue 41). Both crashes the security review found were one form post each:
/// a pickup slot past what an `Int64` of seconds holds, and a pick-mode stop of `Int.min`. In this
/// process a trap would end the whole test run, so these tests fail loudly on the old code.
@Suite("Numbers from pages: bounded by their meaning, a sentence on the page, never a trap")
struct PageNumberTests {
    /// What a hostile or clumsy client sends where a whole number belongs.
    static let hostile = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-1", "1e308", "NaN", "Infinity", "0x10",
        "12.5", "+-3", String(repeating: "9", count: 400), "5\u{0}", "١٢",
    ]

    @Test("the reader: blank is nil, a number in range is itself, anything else is invalid_field naming the field")
    func reader() throws {
        #expect(try ClientNumber.read(nil, field: "stop", in: 1...10) == nil)
        #expect(try ClientNumber.read("  ", field: "stop", in: 1...10) == nil)
        #expect(try ClientNumber.read(" 7\n", field: "stop", in: 1...10) == 7)  // a wedge scanner's Enter
        #expect(try ClientNumber.read("+3", field: "stop", in: 1...10) == 3)
        #expect(try ClientNumber.read("-2", field: "delta", in: -5...5) == -2)
        for text in Self.hostile + ["0", "11"] {
            #expect(throws: APIError.self, "\(text.prefix(30))") { try ClientNumber.read(text, field: "stop", label: "A stop", in: 1...10) }
        }
        do {
            _ = try ClientNumber.read("-9223372036854775808", field: "stop", label: "A stop", in: 1...10)
        } catch {
            #expect(error.code == "invalid_field" && error.status == .unprocessableContent)
            #expect(error.details?["field"] == "stop")
            #expect(error.message == "A stop must be a whole number from 1 to 10.")
        }
    }

    @Test("a checkout form with a pickup slot no calendar can hold is refused on the page; no order, and the service lives")
    func pickupSlotExtremes() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 10)
            let cookie = try await ShopFormTests.shopper(app, store: store)
            let csrf = try await app.csrfToken(on: "/shop", cookie: cookie)
            try await app.form(.post, "/shop/cart/items", ["_csrf": csrf, "productId": rice, "mode": "add", "quantity": "2"], cookie: cookie)
            // A year past what any calendar offers, but a valid Int64: refused by the checkout's own bound.
            for slot in Self.hostile + ["253402300799", "0"] {
                let page = try await app.form(.get, "/shop/checkout", cookie: cookie).text
                let attempt = try #require(ShopFormTests.field("attempt", in: page))
                let reply = try await app.form(
                    .post, "/shop/checkout", ["_csrf": csrf, "attempt": attempt, "pickupSlot": slot], cookie: cookie)
                #expect(reply.status == .unprocessableContent, "pickupSlot=\(slot.prefix(30))")
                #expect(reply.headers[.contentType] == "text/html; charset=utf-8")
                #expect(
                    reply.text.contains("A pickup time must be a whole number") || reply.text.contains("pickup slot"),
                    "pickupSlot=\(slot.prefix(30))")
            }
            #expect(try await sql("SELECT count(*) FROM orders WHERE store_id = $1", [store], on: app.database)[0][0] == "0")
            #expect(try await app.stock(store: store, product: rice) == (10, 0))
            #expect(try await app.request(.get, "/healthz").status == .ok)
        }
    }

    @Test("pick mode with a stop of Int.min, or any other stop that is not one, records nothing and says so; the list stays pickable")
    func pickModeStopExtremes() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let dairy = try await app.createAisle(store: store, code: "6", name: "Dairy", walkOrder: 1)
            let cheese = try await app.createProduct(store: store, name: "Mozzarella", barcode: "4006381333931", aisle: dairy, bay: 2)
            let customer = try await app.registerCustomer()
            let order = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(cheese, 2)])
            let staff = try await app.signIn(role: .staff, store: store)
            let created = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
            let list = try #require(created.json["id"].string)
            let picker = try await app.consoleCookie(try await app.storeAccount(.staff, store: store))
            let csrf = try await app.csrfToken(on: "/console/pick-lists/\(list)/pick", cookie: picker)
            for stop in Self.hostile {
                let reply = try await app.form(
                    .post, "/console/pick-lists/\(list)/picks",
                    ["_csrf": csrf, "stop": stop, "orderId": order, "productId": cheese, "barcode": "4006381333931", "quantity": "1"],
                    cookie: picker)
                #expect(reply.status == .unprocessableContent, "stop=\(stop.prefix(30))")
                #expect(reply.text.contains("A stop must be a whole number from 1 to"), "stop=\(stop.prefix(30))")
                let page = try await app.form(
                    .get, "/console/pick-lists/\(list)/pick?stop=\(stop.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                    cookie: picker)
                #expect(page.status == .unprocessableContent, "GET stop=\(stop.prefix(30))")
            }
            for quantity in Self.hostile {
                let reply = try await app.form(
                    .post, "/console/pick-lists/\(list)/picks",
                    ["_csrf": csrf, "stop": "1", "orderId": order, "productId": cheese, "barcode": "4006381333931", "quantity": quantity],
                    cookie: picker)
                #expect(reply.status == .unprocessableContent, "quantity=\(quantity.prefix(30))")
            }
            let picked = try await sql(
                "SELECT coalesce(picked_quantity, 0) FROM order_lines WHERE order_id = $1 AND product_id = $2", [order, cheese], on: app.database)
            #expect(picked[0][0] == "0")
            // A real pick still works afterwards.
            let pick = try await app.form(
                .post, "/console/pick-lists/\(list)/picks",
                ["_csrf": csrf, "stop": "1", "orderId": order, "productId": cheese, "barcode": "4006381333931", "quantity": "2"],
                cookie: picker)
            #expect(pick.status == .ok)
            #expect(pick.text.contains("Picked 2 of 2."))
        }
    }

    @Test("stock, place and coupon forms bound their numbers: a sentence on the page, nothing stored")
    func managerForms() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 10)
            let manager = try await app.consoleCookie(try await app.storeAccount(.manager, store: store))
            let csrf = try await app.csrfToken(on: "/console/stock", cookie: manager)
            for value in Self.hostile {
                let level = try await app.form(
                    .post, "/console/stock/\(product)/level", ["_csrf": csrf, "onHand": value, "minSupply": "1", "expectedOnHand": "10"],
                    cookie: manager)
                #expect(level.status == .unprocessableContent, "onHand=\(value.prefix(30))")
                let expected = try await app.form(
                    .post, "/console/stock/\(product)/level", ["_csrf": csrf, "onHand": "3", "minSupply": "1", "expectedOnHand": value],
                    cookie: manager)
                #expect(expected.status == .unprocessableContent, "expectedOnHand=\(value.prefix(30))")
                let coupon = try await app.form(
                    .post, "/console/coupons", ["_csrf": csrf, "code": "TEN", "amountOff": "1.00", "redemptionLimit": value],
                    cookie: manager)
                #expect(coupon.status == .unprocessableContent, "redemptionLimit=\(value.prefix(30))")
            }
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            #expect(try await sql("SELECT count(*) FROM coupons", on: app.database)[0][0] == "0")
        }
    }
}
