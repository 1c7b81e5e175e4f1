import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Age-restricted goods: the ID check at hand-over")
struct IDCheckTests {
    /// A paid, packaged order of `beer` (restricted, 18+) and `bread` at `store`.
    func restrictedOrder(_ app: TestApp, store: String, staff: Session, pay: Bool = true) async throws -> (JSONValue, String, String) {
        let customer = try await app.registerCustomer()
        let beer = try await app.addProduct(store: store, name: "Red Stripe", price: 500, onHand: 10)
        let bread = try await app.addProduct(store: store, name: "Hard dough bread", price: 300, onHand: 10)
        try await sql("UPDATE products SET minimum_age = 18 WHERE id = $1", [beer], on: app.database)
        try await app.fillCart(customer, store: store, [(beer, 2), (bread, 1)])
        let order = try await app.checkout(customer).json
        #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
        if pay { #expect(try await app.pay(order, by: staff).status == .created) }
        return (order, beer, bread)
    }

    @Test("checkout says 'bring ID'; hand-over without idChecked is 428 and changes nothing; with it, who/how/when is kept")
    func idCheckRequired() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (order, beer, _) = try await restrictedOrder(app, store: store, staff: staff)
            #expect(order["idCheck"]["minimumAge"].int == 18)
            #expect(order["lines"].array.contains { $0["minimumAge"].int == 18 && $0["name"].string == "Red Stripe" })
            let token = order["pickupToken"].string!

            let preview = try await app.scan(token, by: staff, preview: true)
            #expect(preview.status == .ok)
            #expect(preview.json["idCheck"]["minimumAge"].int == 18)

            let refused = try await app.scan(token, by: staff)
            #expect(refused.status.code == 428)
            #expect(refused.errorCode == "id_check_required")
            #expect(refused.json["error"]["details"]["minimumAge"].int == 18)
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [order["id"].string!], on: app.database)[0][0] == "packaged")
            #expect(try await app.stock(store: store, product: beer) == (10, 2))

            let collected = try await app.request(
                .post, "/v1/collections", json: ["token": .string(token), "idChecked": true, "idCheckMethod": "scanned"], token: staff.token)
            #expect(collected.status == .ok)
            #expect(collected.json["idCheck"]["method"].string == "scanned")
            #expect(collected.json["idCheck"]["confirmedBy"].string == staff.userID)
            #expect(collected.json["idCheck"]["confirmedByName"].string == "Test staff")
            #expect(collected.json["idCheck"]["confirmedAt"].string != nil)
            #expect(try await app.stock(store: store, product: beer) == (8, 0))
            // What is kept about the check: never a date of birth.
            let columns = try await sql(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'id_checks' ORDER BY ordinal_position", on: app.database)
            #expect(columns.map { $0[0] ?? "" } == ["order_id", "store_id", "minimum_age", "method", "confirmed_by", "confirmed_at"])
        }
    }

    @Test("orders with no restricted line are unaffected")
    func unaffected() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store)
            #expect(!order.has("idCheck"))
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)
            let collected = try await app.scan(order["pickupToken"].string!, by: staff)
            #expect(collected.status == .ok)
            #expect(!collected.json.has("idCheck"))
        }
    }

    @Test("no ID: staff remove the restricted lines — stock released, total lowered, the rest handed over")
    func removeRestrictedLines() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (order, beer, bread) = try await restrictedOrder(app, store: store, staff: staff, pay: false)
            #expect(order["total"]["amount"].int == 1300)
            let id = order["id"].string!

            let customer = try await app.registerCustomer()
            #expect(try await app.request(.post, "/v1/orders/\(id)/restricted-lines/remove", token: customer.token).status == .forbidden)
            let otherStaff = try await app.signIn(role: .staff, store: try await app.createStore())
            #expect(try await app.request(.post, "/v1/orders/\(id)/restricted-lines/remove", token: otherStaff.token).status == .notFound)

            let removed = try await app.request(.post, "/v1/orders/\(id)/restricted-lines/remove", token: staff.token)
            #expect(removed.status == .ok)
            #expect(removed.json["total"]["amount"].int == 300)
            #expect(!removed.json.has("idCheck"))
            #expect(removed.json["lines"].array.first { $0["name"].string == "Red Stripe" }?["removed"].bool == true)
            #expect(try await app.stock(store: store, product: beer) == (10, 0))
            #expect(try await app.stock(store: store, product: bread) == (10, 1))
            let again = try await app.request(.post, "/v1/orders/\(id)/restricted-lines/remove", token: staff.token)
            #expect(again.errorCode == "no_restricted_lines")

            #expect(try await app.pay(removed.json, by: staff).status == .created)
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status == .ok)
            #expect(try await app.stock(store: store, product: beer) == (10, 0))
            #expect(try await app.stock(store: store, product: bread) == (9, 0))
        }
    }
}

@Suite("Age-restricted goods in the catalogue import")
struct MinimumAgeImportTests {
    @Test("minimum_age in the CSV sets, keeps or clears a product's minimum age; a bad one is named by its line")
    func importMinimumAge() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "AGE-1")
            let header = "sku,name,price,on_hand,minimum_age"
            _ = try await app.importCSV("\(header)\nRUM-1,Overproof rum,250000,6,18\nJUICE-1,Orange juice,30000,10,\n", store: store.id)
            let ages = "SELECT sku, minimum_age FROM products WHERE sku IN ('RUM-1', 'JUICE-1') ORDER BY sku"
            #expect(try await sql(ages, on: app.database) == [["JUICE-1", nil], ["RUM-1", "18"]])

            // A file without the column leaves the ages alone; an empty field clears one.
            _ = try await app.importCSV("sku,name,price,on_hand\nRUM-1,Overproof rum,260000,6\n", store: store.id)
            #expect(try await sql(ages, on: app.database) == [["JUICE-1", nil], ["RUM-1", "18"]])
            _ = try await app.importCSV("\(header)\nRUM-1,Overproof rum,260000,6,\n", store: store.id)
            #expect(try await sql(ages, on: app.database) == [["JUICE-1", nil], ["RUM-1", nil]])

            let problems = try await app.importRefused("\(header)\nRUM-1,Overproof rum,260000,6,eighteen\nGIN-1,Gin,1,1,200\n", store: store.id)
            #expect(problems.map(\.line) == [2, 3])
        }
    }

    @Test("the chain's minimum age is the admin's to set; a manager and staff cannot change it for the chain")
    func adminSetsChainMinimumAge() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let admin = try await app.signInAdmin()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let product = try await app.addProduct(store: store, name: "Stout")
            for refused in [manager, staff] {
                let reply = try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 16], token: refused.token)
                #expect(reply.status == .forbidden)
            }
            #expect(try await sql("SELECT minimum_age FROM products WHERE id = $1", [product], on: app.database)[0][0] == nil)
            let set = try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 18], token: admin.token)
            #expect(set.status == .ok)
            #expect(set.json["minimumAge"].int == 18)
            #expect(
                try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 0], token: admin.token).status
                    == .unprocessableContent)
            let cleared = try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": .null], token: admin.token)
            #expect(cleared.status == .ok)
            // The contract requires the field: none is a present null, not a missing key.
            #expect(cleared.json.has("minimumAge") && cleared.json["minimumAge"] == .null)
            #expect(try await sql("SELECT minimum_age FROM products WHERE id = $1", [product], on: app.database)[0][0] == nil)
        }
    }

    @Test("a store's manager adds a stricter age for their store alone, never a lower one; checkout at each store asks its own")
    func storeAddsStricterAge() async throws {
        try await withApp { app in
            let strict = try await app.createStore()
            let other = try await app.createStore()
            let admin = try await app.signInAdmin()
            let manager = try await app.signIn(role: .manager, store: strict)
            let staff = try await app.signIn(role: .staff, store: strict)
            let otherStaff = try await app.signIn(role: .staff, store: other)
            let rum = try await app.addProduct(store: strict, name: "Overproof rum", price: 2600, onHand: 10)
            try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 10)", [other, rum], on: app.database)
            #expect(try await app.request(.put, "/v1/products/\(rum)/minimum-age", json: ["minimumAge": 18], token: admin.token).status == .ok)
            let path = "/v1/stores/\(strict)/products/\(rum)/minimum-age"

            // Lower than the chain's: refused, and nothing is written.
            let lower = try await app.request(.put, path, json: ["minimumAge": 16], token: manager.token)
            #expect(lower.status == .unprocessableContent, "\(lower.text)")
            #expect(lower.errorCode == "minimum_age_below_chain")
            #expect(lower.json["error"]["details"]["chainMinimumAge"].int == 18)
            #expect(try await sql("SELECT count(*) FROM store_minimum_ages", on: app.database)[0][0] == "0")

            // Stricter: kept for this store alone.
            let stricter = try await app.request(.put, path, json: ["minimumAge": 21], token: manager.token)
            #expect(stricter.status == .ok, "\(stricter.text)")
            #expect(stricter.json["minimumAge"].int == 21)
            #expect(stricter.json["chainMinimumAge"].int == 18)
            #expect(stricter.json["storeMinimumAge"].int == 21)
            let seen = try await app.request(.get, path, token: staff.token)
            #expect(seen.status == .ok && seen.json["minimumAge"].int == 21)
            #expect(try await sql("SELECT minimum_age FROM products WHERE id = $1", [rum], on: app.database)[0][0] == "18")

            // Another store's manager and staff reach none of it; staff cannot set it.
            let otherManager = try await app.signIn(role: .manager, store: other)
            #expect(try await app.request(.put, path, json: ["minimumAge": 25], token: otherManager.token).status == .forbidden)
            #expect(try await app.request(.put, path, json: ["minimumAge": 25], token: staff.token).status == .forbidden)
            let otherPath = "/v1/stores/\(other)/products/\(rum)/minimum-age"
            #expect(try await app.request(.get, otherPath, token: otherStaff.token).json["minimumAge"].int == 18)

            // Checkout at each store records the age that holds there.
            for (store, age) in [(strict, 21), (other, 18)] {
                let customer = try await app.registerCustomer()
                try await app.fillCart(customer, store: store, [(rum, 1)])
                let order = try await app.checkout(customer).json
                #expect(order["idCheck"]["minimumAge"].int == age, "\(order)")
                #expect(order["lines"][0]["minimumAge"].int == age)
                let line = try await sql("SELECT minimum_age FROM order_lines WHERE order_id = $1", [order["id"].string!], on: app.database)
                #expect(line[0][0] == String(age))
            }

            // Cleared: the chain's holds again. A chain age raised past the store's holds too.
            let cleared = try await app.request(.put, path, json: ["minimumAge": .null], token: manager.token)
            #expect(cleared.status == .ok && cleared.json["minimumAge"].int == 18 && cleared.json["storeMinimumAge"] == .null)
            #expect(try await app.request(.put, path, json: ["minimumAge": 19], token: manager.token).status == .ok)
            #expect(try await app.request(.put, "/v1/products/\(rum)/minimum-age", json: ["minimumAge": 20], token: admin.token).status == .ok)
            #expect(try await app.request(.get, path, token: staff.token).json["minimumAge"].int == 20)
        }
    }
}
