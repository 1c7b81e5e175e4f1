import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Numbers from clients are bounded and never trap: one request must not stop the service for
/// every store (issue 10, item 1).
@Suite("Numbers: bounded in the contract, checked in the code, never a crash")
struct NumberBoundsTests {
    @Test("a price above the ceiling is refused by the API and by the database")
    func priceCeiling() async throws {
        try await withApp { app in
            let admin = try await app.signInAdmin()
            let huge = try await app.request(
                .post, "/v1/products",
                json: ["sku": "HUGE-1", "name": "Gold bar", "price": ["amount": .int(Int(Money.maximumPrice) + 1), "currency": "JMD"]],
                token: admin.token)
            #expect(huge.status == .unprocessableContent)
            #expect(huge.json["error"]["details"]["field"].string == "price.amount")
            let atCeiling = try await app.request(
                .post, "/v1/products",
                json: ["sku": "HUGE-2", "name": "Gold bar", "price": ["amount": .int(Int(Money.maximumPrice)), "currency": "JMD"]],
                token: admin.token)
            #expect(atCeiling.status == .created)
            await #expect(throws: (any Error).self) {
                try await sql("UPDATE products SET price_amount = 9223372036854775807 WHERE sku = 'HUGE-2'", on: app.database)
            }
        }
    }

    @Test("a price written before the ceiling existed: the cart reads, checkout says total_too_large, nothing traps")
    func legacyHugePrice() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, price: 1000, onHand: 10)
            // As a database from the first release could hold it.
            _ = try await sql("ALTER TABLE products DROP CONSTRAINT products_price_ceiling", on: app.database)
            _ = try await sql("UPDATE products SET price_amount = 9223372036854775807 WHERE id = $1", [product], on: app.database)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 2)])
            let cart = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(cart.status == .ok)
            let checkout = try await app.checkout(customer)
            #expect(checkout.status == .unprocessableContent)
            #expect(checkout.errorCode == "total_too_large")
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            #expect(try await app.request(.get, "/healthz").status == .ok)
        }
    }

    @Test("line and order sums saturate or report overflow instead of trapping")
    func arithmetic() {
        #expect(Money.lineTotal(unitPrice: 80100, quantity: 3) == 240300)
        #expect(Money.lineTotal(unitPrice: .max, quantity: 2) == .max)
        #expect(Money.sum([1, 2, 3]) == 6)
        #expect(Money.sum([.max, 1]) == nil)
        #expect(Money.lineTotal(unitPrice: Money.maximumPrice, quantity: 99) < Int64.max / 1_000_000)
    }
}
