import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Prices per store: a store's own price is what it shows and charges; other stores keep the catalogue's")
struct StorePriceTests {
    @Test("a manager of store A sets a price: search and product at A show it, B the catalogue's; A's cart and checkout charge it")
    func storePriceShownAndCharged() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "PR-A")
            let b = try await app.catalogueStore(code: "PR-B")
            let product = try await app.addProduct("Blue Mountain Coffee", price: 250_000, at: a)
            _ = try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 10)", [b.id, product], on: app.database)
            let manager = try await app.signIn(role: .manager, store: a.id)

            let set = try await app.request(
                .put, "/v1/stores/\(a.id)/prices/\(product)", json: ["amount": 199_900, "currency": "JMD"], token: manager.token)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set.json["price"]["amount"].int == 199_900)
            #expect(set.json["catalogPrice"]["amount"].int == 250_000)
            #expect(set.json["storePrice"]["amount"].int == 199_900)
            #expect(set.json["storeId"].string == a.id)

            let atA = try await app.request(.get, "/v1/products?q=coffee&storeId=\(a.id)")
            #expect(atA.json["items"][0]["price"]["amount"].int == 199_900)
            let atB = try await app.request(.get, "/v1/products?q=coffee&storeId=\(b.id)")
            #expect(atB.json["items"][0]["price"]["amount"].int == 250_000)
            let listedAtA = try await app.request(.get, "/v1/products?storeId=\(a.id)")
            #expect(listedAtA.json["items"][0]["price"]["amount"].int == 199_900)
            let productAtA = try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)")
            #expect(productAtA.json["price"]["amount"].int == 199_900)
            let productAtB = try await app.request(.get, "/v1/products/\(product)?storeId=\(b.id)")
            #expect(productAtB.json["price"]["amount"].int == 250_000)
            let nowhere = try await app.request(.get, "/v1/products/\(product)")
            #expect(nowhere.json["price"]["amount"].int == 250_000)

            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: a.id, [(product, 2)])
            let cart = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(cart.json["items"][0]["unitPrice"]["amount"].int == 199_900)
            #expect(cart.json["total"]["amount"].int == 399_800)
            let order = try await app.checkout(customer)
            #expect(order.status == .created, "\(order.text)")
            #expect(order.json["total"]["amount"].int == 399_800)
            #expect(order.json["lines"][0]["unitPrice"]["amount"].int == 199_900)

            let customerAtB = try await app.registerCustomer()
            try await app.fillCart(customerAtB, store: b.id, [(product, 1)])
            let cartAtB = try await app.request(.get, "/v1/cart", token: customerAtB.token)
            #expect(cartAtB.json["items"][0]["unitPrice"]["amount"].int == 250_000)
        }
    }

    @Test("another store's manager is refused; staff may read but not set; a bad amount or currency is 422; DELETE restores the catalogue's")
    func refusalsAndRemoval() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "PR-C")
            let b = try await app.catalogueStore(code: "PR-D")
            let product = try await app.addProduct("Ackee", price: 90_000, at: a)
            let manager = try await app.signIn(role: .manager, store: a.id)
            let staff = try await app.signIn(role: .staff, store: a.id)
            let otherManager = try await app.signIn(role: .manager, store: b.id)
            let path = "/v1/stores/\(a.id)/prices/\(product)"

            let intruder = try await app.request(.put, path, json: ["amount": 1, "currency": "JMD"], token: otherManager.token)
            #expect(intruder.status == .forbidden)
            let byStaff = try await app.request(.put, path, json: ["amount": 1, "currency": "JMD"], token: staff.token)
            #expect(byStaff.status == .forbidden)
            for amount: JSONValue in [-1, 10_000_000_001, .int(Int.max)] {
                let bad = try await app.request(.put, path, json: ["amount": amount, "currency": "JMD"], token: manager.token)
                #expect(bad.status == .unprocessableContent, "\(amount): \(bad.text)")
                #expect(bad.json["error"]["details"]["field"].string == "amount")
            }
            let wrongCurrency = try await app.request(.put, path, json: ["amount": 100, "currency": "USD"], token: manager.token)
            #expect(wrongCurrency.status == .unprocessableContent)
            #expect(wrongCurrency.json["error"]["details"]["field"].string == "currency")
            let unknown = try await app.request(
                .put, "/v1/stores/\(a.id)/prices/\(UUID())", json: ["amount": 100, "currency": "JMD"], token: manager.token)
            #expect(unknown.status == .notFound)
            #expect(try await sql("SELECT count(*) FROM store_prices", [], on: app.database)[0][0] == "0")

            let set = try await app.request(.put, path, json: ["amount": 85_000, "currency": "JMD"], token: manager.token)
            #expect(set.status == .ok, "\(set.text)")
            let read = try await app.request(.get, path, token: staff.token)
            #expect(read.json["price"]["amount"].int == 85_000)
            let readByOther = try await app.request(.get, path, token: otherManager.token)
            #expect(readByOther.status == .forbidden)
            let removedByOther = try await app.request(.delete, path, token: otherManager.token)
            #expect(removedByOther.status == .forbidden)

            let removed = try await app.request(.delete, path, token: manager.token)
            #expect(removed.status == .ok, "\(removed.text)")
            #expect(removed.json["price"]["amount"].int == 90_000)
            #expect(!removed.json.has("storePrice"))
            let again = try await app.request(.delete, path, token: manager.token)
            #expect(again.status == .ok)
            let shown = try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)")
            #expect(shown.json["price"]["amount"].int == 90_000)
        }
    }

    @Test("a CSV import at a store sets its own price from store_price; an empty cell leaves it; a bad one refuses the file")
    func importSetsStorePrices() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "PR-E")
            let b = try await app.catalogueStore(code: "PR-F")
            let header = "sku,name,price,on_hand,store_price"
            let first = "\(header)\nSP-1,Coconut Water,30000,10,27500\nSP-2,Plantain Chips,15000,10,\n"
            #expect(try await app.importCSV(first, store: "PR-E").created == 2)
            let water = try #require(try await sql("SELECT id FROM products WHERE sku = 'SP-1'", on: app.database)[0][0])
            let chips = try #require(try await sql("SELECT id FROM products WHERE sku = 'SP-2'", on: app.database)[0][0])
            let waterAtA = try await app.request(.get, "/v1/products/\(water)?storeId=\(a.id)")
            #expect(waterAtA.json["price"]["amount"].int == 27_500)
            let chipsAtA = try await app.request(.get, "/v1/products/\(chips)?storeId=\(a.id)")
            #expect(chipsAtA.json["price"]["amount"].int == 15_000)

            // Store B's import of the same products leaves A's prices alone; an empty cell leaves B's.
            _ = try await app.importCSV("\(header)\nSP-1,Coconut Water,30000,5,29000\n", store: "PR-F")
            _ = try await app.importCSV("\(header)\nSP-1,Coconut Water,30000,5,\n", store: "PR-F")
            let waterAtB = try await app.request(.get, "/v1/products/\(water)?storeId=\(b.id)")
            #expect(waterAtB.json["price"]["amount"].int == 29_000)
            #expect(try await app.request(.get, "/v1/products/\(water)?storeId=\(a.id)").json["price"]["amount"].int == 27_500)

            let refused = try await app.importRefused("\(header)\nSP-1,Coconut Water,30000,10,-1\nSP-2,Plantain Chips,15000,10,abc\n", store: "PR-E")
            #expect(refused.map(\.line) == [2, 3])
            #expect(refused.first?.message.contains("store_price") == true)
            #expect(try await app.request(.get, "/v1/products/\(water)?storeId=\(a.id)").json["price"]["amount"].int == 27_500)
        }
    }
}
