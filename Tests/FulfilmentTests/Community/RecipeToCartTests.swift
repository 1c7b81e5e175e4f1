import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Recipe to cart: one tap puts a recipe's products in the cart at the cart's store, scaled, merged, and says what it could not")
struct RecipeToCartTests {
    @Test("scaled to the servings and rounded up; a line already in the cart is added to; every reason a line is left out")
    func addsWhatTheStoreHas() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let elsewhere = try await app.createStore()
            let rice = try await app.addProduct(store: store, name: "Rice", onHand: 50)
            let peas = try await app.addProduct(store: store, name: "Red peas", onHand: 50)
            let pepper = try await app.addProduct(store: store, name: "Scotch bonnet", onHand: 2)
            let thyme = try await app.addProduct(store: store, name: "Thyme", onHand: 50)
            try await sql("UPDATE products SET discontinued = true WHERE id = $1", [thyme], on: app.database)
            let saltfish = try await app.addProduct(store: elsewhere, name: "Saltfish")
            let oil = try await app.addProduct(store: store, name: "Coconut oil", onHand: 500)

            let cook = try await app.registerCustomer()
            let recipe = try await app.shareRecipe(
                cook, servings: 4,
                [
                    ("2 cups rice", rice, 3), ("Red peas", peas, 1), ("Scotch bonnet", pepper, 2), ("Thyme", thyme, 1),
                    ("Saltfish", saltfish, 1), ("A pinch of salt", nil, nil), ("Oil", oil, 80),
                ])
            let id = try #require(recipe["id"].string)

            let shopper = try await app.registerCustomer()
            try await app.fillCart(shopper, store: store, [(peas, 2)])
            let reply = try await app.request(.post, "/v1/recipes/\(id)/add-to-cart", json: ["servings": 6], token: shopper.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let added = reply.json["added"].array
            let notAdded = reply.json["notAdded"].array
            // 3 units for 4 servings is 4.5 for 6: 5. Peas: 1.5 → 2, onto the 2 already there.
            #expect(added.map { $0["index"].int } == [0, 1])
            #expect(added[0]["quantity"].int == 5 && added[0]["cartQuantity"].int == 5)
            #expect(added[1]["quantity"].int == 2 && added[1]["cartQuantity"].int == 4)
            let reasons = Dictionary(uniqueKeysWithValues: notAdded.map { ($0["index"].int ?? -1, $0["reason"].string ?? "") })
            #expect(reasons == [2: "out_of_stock", 3: "discontinued", 4: "not_carried", 5: "no_product", 6: "quantity_limit"])
            #expect(notAdded.first { $0["index"].int == 2 }?["available"].int == 2)

            let cart = try await app.request(.get, "/v1/cart", token: shopper.token).json
            let lines = Dictionary(uniqueKeysWithValues: (cart["items"].array).map { ($0["productId"].string ?? "", $0["quantity"].int ?? 0) })
            #expect(lines == [rice: 5, peas: 4], "one line per product, never duplicated")
        }
    }

    @Test("skip leaves ingredients out; an index the recipe has not is 422; no chosen store is 409; a hidden or unknown recipe 404")
    func refusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, name: "Rice")
            let peas = try await app.addProduct(store: store, name: "Peas")
            let cook = try await app.registerCustomer()
            let id = try #require(try await app.shareRecipe(cook, servings: 2, [("Rice", rice, 1), ("Peas", peas, 1)])["id"].string)

            let wanderer = try await app.registerCustomer()
            let noStore = try await app.request(.post, "/v1/recipes/\(id)/add-to-cart", json: [:], token: wanderer.token)
            #expect(noStore.status == .conflict && noStore.errorCode == "no_store_chosen", "\(noStore.text)")

            try await app.chooseStore(wanderer, store)
            let unknown = try await app.request(.post, "/v1/recipes/\(id)/add-to-cart", json: ["skip": [7]], token: wanderer.token)
            #expect(unknown.status == .unprocessableContent && unknown.json["error"]["details"]["field"].string == "skip")
            let skipped = try await app.request(.post, "/v1/recipes/\(id)/add-to-cart", json: ["skip": [0]], token: wanderer.token)
            #expect(skipped.status == .ok && skipped.json["added"].array.map { $0["productId"].string } == [peas])
            #expect(skipped.json["servings"].int == 2)

            let missing = try await app.request(.post, "/v1/recipes/\(UUID().uuidString)/add-to-cart", json: [:], token: wanderer.token)
            #expect(missing.status == .notFound, "\(missing.text)")
            let staff = try await app.signIn(role: .staff, store: store)
            #expect(try await app.request(.post, "/v1/recipes/\(id)/add-to-cart", json: [:], token: staff.token).status == .forbidden)
        }
    }

    @Test("locate?recipeId= lists the recipe's products this store carries in aisle walk order, with their ingredient")
    func locatesARecipe() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let late = try await app.createAisle(store: store, code: "9", name: "Frozen", walkOrder: 9)
            let early = try await app.createAisle(store: store, code: "1", name: "Produce", walkOrder: 1)
            let ice = try await app.createProduct(store: store, name: "Ice", aisle: late)
            let lime = try await app.createProduct(store: store, name: "Lime", aisle: early)
            let unplaced = try await app.addProduct(store: store, name: "Sugar")
            let elsewhere = try await app.addProduct(store: try await app.createStore(), name: "Rum")
            let cook = try await app.registerCustomer()
            let id = try #require(
                try await app.shareRecipe(
                    cook, [("Ice", ice, 1), ("Sugar", unplaced, 1), ("Rum", elsewhere, 1), ("Lime", lime, 2), ("Water", nil, nil)])["id"].string)

            let reply = try await app.request(.get, "/v1/stores/\(store)/locate?recipeId=\(id)")
            #expect(reply.status == .ok, "\(reply.text)")
            let items = reply.json["items"].array
            #expect(items.map { $0["productId"].string } == [lime, ice, unplaced])
            #expect(items.map { $0["ingredientIndex"].int } == [3, 0, 1])
            #expect(items[0]["ingredient"].string == "Lime" && items[2]["located"].bool == false)
            #expect(reply.json["nextCursor"] == .null)
            let both = try await app.request(.get, "/v1/stores/\(store)/locate?recipeId=\(id)&q=lime")
            #expect(both.status == .unprocessableContent)
            #expect(try await app.request(.get, "/v1/stores/\(store)/locate").status == .unprocessableContent)
        }
    }
}
