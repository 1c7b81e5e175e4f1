import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The price guarantee: checkout charges the price the cart last showed, or refuses with price_changed naming the lines")
struct PriceGuaranteeTests {
    /// A store with a manager, a product at `price` and another at 5000, and a customer whose cart
    /// holds two of the first and one of the second, read once.
    struct Fixture {
        var store: CatalogueStore
        var manager: Session
        var customer: Session
        var product: String
        var other: String
    }

    static func fixture(_ app: TestApp, code: String, price: Int = 10_000) async throws -> Fixture {
        let store = try await app.catalogueStore(code: code)
        let product = try await app.addProduct("Ginger Beer", price: price, at: store)
        let other = try await app.addProduct("Hardo Bread", price: 5_000, at: store)
        let manager = try await app.signIn(role: .manager, store: store.id)
        let customer = try await app.registerCustomer()
        try await app.fillCart(customer, store: store.id, [(product, 2), (other, 1)])
        return Fixture(store: store, manager: manager, customer: customer, product: product, other: other)
    }

    /// Checkout is refused naming only `product`, shown at `shown` and now at `price`; no order.
    static func expectPriceChanged(_ app: TestApp, _ f: Fixture, shown: Int, price: Int) async throws {
        let refused = try await app.checkout(f.customer)
        #expect(refused.status == .conflict, "\(refused.text)")
        #expect(refused.json["error"]["code"].string == "price_changed")
        let lines = refused.json["error"]["details"]["lines"].array
        #expect(lines.map { $0["productId"].string } == [f.product])
        #expect(lines.first?["shownPrice"]["amount"].int == shown)
        #expect(lines.first?["shownPrice"]["currency"].string == "JMD")
        #expect(lines.first?["price"]["amount"].int == price)
        #expect(try await sql("SELECT count(*) FROM orders", on: app.database)[0][0] == "0")
        #expect(try await sql("SELECT sum(reserved) FROM stock", on: app.database)[0][0] == "0")
    }

    /// Reading the cart shows `price`; checkout then charges it.
    static func expectChargedAfterReading(_ app: TestApp, _ f: Fixture, price: Int) async throws {
        let cart = try await app.request(.get, "/v1/cart", token: f.customer.token)
        let line = cart.json["items"].array.first { $0["productId"].string == f.product }
        #expect(line?["unitPrice"]["amount"].int == price)
        let order = try await app.checkout(f.customer)
        #expect(order.status == .created, "\(order.text)")
        #expect(order.json["total"]["amount"].int == 2 * price + 5_000)
        let charged = order.json["lines"].array.first { $0["productId"].string == f.product }
        #expect(charged?["unitPrice"]["amount"].int == price)
    }

    @Test("a sale starts while the cart is in hand: 409 price_changed naming the line; read the cart, and checkout charges the sale price")
    func saleStarts() async throws {
        try await withApp { app in
            let f = try await Self.fixture(app, code: "PG-A")
            let sale = try await app.createSale(f.manager, store: f.store.id, product: f.product, amount: 8_000)
            #expect(sale.status == .created, "\(sale.text)")
            try await Self.expectPriceChanged(app, f, shown: 10_000, price: 8_000)
            try await Self.expectChargedAfterReading(app, f, price: 8_000)
        }
    }

    @Test("a sale ends while the cart is in hand: 409 price_changed; read the cart, and checkout charges the regular price")
    func saleEnds() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "PG-B")
            let product = try await app.addProduct("Ginger Beer", price: 10_000, at: store)
            let other = try await app.addProduct("Hardo Bread", price: 5_000, at: store)
            let manager = try await app.signIn(role: .manager, store: store.id)
            let sale = try await app.createSale(manager, store: store.id, product: product, amount: 8_000)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store.id, [(product, 2), (other, 1)])
            let f = Fixture(store: store, manager: manager, customer: customer, product: product, other: other)
            let shown = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(shown.json["items"][0]["unitPrice"]["amount"].int == 8_000)

            let saleID = try #require(sale.json["id"].string)
            let ended = try await app.request(.post, "/v1/stores/\(store.id)/sales/\(saleID)/end", token: manager.token)
            #expect(ended.status == .ok, "\(ended.text)")
            try await Self.expectPriceChanged(app, f, shown: 8_000, price: 10_000)
            try await Self.expectChargedAfterReading(app, f, price: 10_000)
        }
    }

    @Test("the store's manager changes its price while the cart is in hand: 409 price_changed; read the cart, and checkout charges the new price")
    func storePriceChanged() async throws {
        try await withApp { app in
            let f = try await Self.fixture(app, code: "PG-C")
            let set = try await app.request(
                .put, "/v1/stores/\(f.store.id)/prices/\(f.product)", json: ["amount": 9_000, "currency": "JMD"], token: f.manager.token)
            #expect(set.status == .ok, "\(set.text)")
            try await Self.expectPriceChanged(app, f, shown: 10_000, price: 9_000)
            try await Self.expectChargedAfterReading(app, f, price: 9_000)
        }
    }

    @Test("changing a line's quantity answers the cart at today's prices, and checkout charges them")
    func settingALineShowsThePrice() async throws {
        try await withApp { app in
            let f = try await Self.fixture(app, code: "PG-D")
            _ = try await app.createSale(f.manager, store: f.store.id, product: f.product, amount: 7_500)
            let set = try await app.request(.put, "/v1/cart/items/\(f.other)", json: ["quantity": 1], token: f.customer.token)
            #expect(set.json["items"].array.first { $0["productId"].string == f.product }?["unitPrice"]["amount"].int == 7_500)
            let order = try await app.checkout(f.customer)
            #expect(order.status == .created, "\(order.text)")
            #expect(order.json["total"]["amount"].int == 2 * 7_500 + 5_000)
        }
    }
}
