import Foundation
import Testing

@testable import Fulfilment

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

    @Test("a manager sets a minimum age through the API; staff cannot")
    func managerSetsMinimumAge() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let product = try await app.addProduct(store: store, name: "Stout")
            let set = try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 18], token: manager.token)
            #expect(set.status == .ok)
            #expect(set.json["minimumAge"].int == 18)
            #expect(try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 18], token: staff.token).status == .forbidden)
            #expect(try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": 0], token: manager.token).status == .unprocessableContent)
            let cleared = try await app.request(.put, "/v1/products/\(product)/minimum-age", json: ["minimumAge": .null], token: manager.token)
            #expect(cleared.status == .ok)
            // The contract requires the field: none is a present null, not a missing key.
            #expect(cleared.json.has("minimumAge") && cleared.json["minimumAge"] == .null)
            #expect(try await sql("SELECT minimum_age FROM products WHERE id = $1", [product], on: app.database)[0][0] == nil)
        }
    }
}
