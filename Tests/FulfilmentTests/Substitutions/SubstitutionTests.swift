import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Substitutions: the customer says what they accept, the picker gives it, the customer decides, and stock balances")
struct SubstitutionTests {
    @Test("a cart line carries its preference (the store's default until it says one), bad ones are 422, and checkout copies it onto the order")
    func preferences() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let product = try await app.addProduct(store: store)
            let other = try await app.addProduct(store: store, name: "Other")
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 2)])
            var cart = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(cart.json["items"][0]["substitution"]["preference"].string == "best_match")

            let policy = try await app.request(
                .put, "/v1/stores/\(store)/substitution-policy", json: ["defaultPreference": "none", "priceRule": "substitute_price"],
                token: manager.token)
            #expect(policy.status == .ok, "\(policy.text)")
            cart = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(cart.json["items"][0]["substitution"]["preference"].string == "none")

            let specific: JSONValue = ["quantity": 2, "substitution": ["preference": "specific", "productIds": [.string(other)]]]
            let set = try await app.request(.put, "/v1/cart/items/\(product)", json: specific, token: customer.token)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set.json["items"][0]["substitution"]["productIds"] == [.string(other)])
            // Changing only the quantity keeps the preference.
            let quantity = try await app.request(.put, "/v1/cart/items/\(product)", json: ["quantity": 3], token: customer.token)
            #expect(quantity.json["items"][0]["substitution"]["preference"].string == "specific")

            let bad: [(JSONValue, String)] = [
                (["preference": "specific"], "substitution.productIds"),
                (["preference": "specific", "productIds": [.string(product)]], "substitution.productIds"),
                (["preference": "specific", "productIds": [.string(other), .string(other)]], "substitution.productIds"),
                (["preference": "specific", "productIds": [.string(UUID().uuidString)]], "substitution.productIds"),
                (["preference": "best_match", "productIds": [.string(other)]], "substitution.productIds"),
            ]
            for (substitution, field) in bad {
                let refused = try await app.request(
                    .put, "/v1/cart/items/\(product)", json: ["quantity": 1, "substitution": substitution], token: customer.token)
                #expect(refused.status == .unprocessableContent, "\(substitution): \(refused.text)")
                #expect(refused.json["error"]["details"]["field"].string == field, "\(substitution)")
            }
            #expect(try await app.request(.get, "/v1/cart", token: customer.token).json["items"][0]["quantity"].int == 3)

            let order = try await app.checkout(customer)
            #expect(order.status == .created, "\(order.text)")
            #expect(order.json["lines"][0]["substitution"]["preference"].string == "specific")
            #expect(order.json["lines"][0]["substitution"]["productIds"] == [.string(other)])
            #expect(order.json["lines"][0]["substitutedQuantity"].int == 0)
            // A staff member's store default cannot be set by staff, nor name products.
            let staff = try await app.signIn(role: .staff, store: store)
            #expect(
                try await app.request(
                    .put, "/v1/stores/\(store)/substitution-policy", json: ["defaultPreference": "best_match", "priceRule": "cap"],
                    token: staff.token
                ).status == .forbidden)
            #expect(
                try await app.request(.get, "/v1/stores/\(store)/substitution-policy", token: staff.token).json["priceRule"] == "substitute_price")
        }
    }

    @Test("the pick list shows each line's preference: JSON, the text sheet and the A4 sheet")
    func pickListShowsPreferences() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(preference: ["preference": "none"])
            let list = try await app.request(.get, "/v1/pick-lists/\(shop.pickList)", token: shop.staff.token)
            let allocation = list.json["stops"][0]["allocations"][0]
            #expect(allocation["substitution"]["preference"].string == "none", "\(list.text)")
            let text = try await app.request(.get, "/v1/pick-lists/\(shop.pickList).txt", token: shop.staff.token)
            #expect(text.text.contains("[no subs]"), "\(text.text)")
            let html = try await app.request(.get, "/v1/pick-lists/\(shop.pickList).html", token: shop.staff.token)
            #expect(html.text.contains("<span class=\"sub\">no subs</span>"))
        }
    }

    @Test(
        "a picker short of ackee gives another brand: capped at the line's price, stock moves in the ledger, the order and its history say so, and the event goes out"
    )
    func substituteAtThePick() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(substitutePrice: 1_200)
            let given = try await app.substitute(shop, quantity: 2)
            #expect(given.status == .created, "\(given.text)")
            #expect(given.json["status"].string == "proposed")
            #expect(given.json["substituteName"].string == "Ackee (Brand B)")
            #expect(given.json["unitPrice"]["amount"].int == 1_000)  // cap: the lower of 1,200 and 1,000

            let order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
            let lines = order["lines"].array
            let original = try #require(lines.first { $0["productId"].string == shop.ackee })
            #expect(original["quantity"].int == 1)
            #expect(original["substitutedQuantity"].int == 2)
            let substitute = try #require(lines.first { $0["productId"].string == shop.substitute })
            #expect(substitute["substitute"]["status"].string == "proposed")
            #expect(substitute["substitute"]["replacesProductId"].string == shop.ackee)
            #expect(order["total"]["amount"].int == 3_000)
            #expect(order["history"].array.last?["kind"].string == "substitution_proposed")

            #expect(try await app.stock(store: shop.store, product: shop.ackee).reserved == 1)
            #expect(try await app.stock(store: shop.store, product: shop.substitute).reserved == 2)
            #expect(try await app.unbalancedStock(store: shop.store).isEmpty)
            let ledger = try await sql(
                "SELECT product_id, reserved_delta, delta FROM stock_movements WHERE reason = 'substitution' ORDER BY reserved_delta",
                on: app.database)
            #expect(ledger == [[shop.ackee, "-2", "0"], [shop.substitute, "2", "0"]])
            let movements = try await app.request(.get, "/v1/stores/\(shop.store)/stock/\(shop.substitute)/movements", token: shop.manager.token)
            #expect(movements.json["items"][0]["reason"].string == "substitution", "\(movements.text)")
            #expect(movements.json["items"][0]["reservedDelta"].int == 2)
            let events = try await sql(
                "SELECT data -> 'substitution' ->> 'status' FROM events WHERE type = 'order.substitution_proposed' AND order_id = $1",
                [shop.orderID], on: app.database)
            #expect(events == [["proposed"]])

            // The pick list now asks for one tin; picking it finishes the line, and the list packs the order.
            let list = try await app.request(.get, "/v1/pick-lists/\(shop.pickList)", token: shop.staff.token)
            let stop = try #require(list.json["stops"].array.first { $0["productId"].string == shop.ackee })
            #expect(stop["quantity"].int == 1)
            #expect(stop["allocations"][0]["substituted"].int == 2)
            let pick = try await app.request(
                .post, "/v1/pick-lists/\(shop.pickList)/picks",
                json: ["orderId": .string(shop.orderID), "productId": .string(shop.ackee), "quantity": 1], token: shop.staff.token)
            #expect(pick.status == .ok, "\(pick.text)")
            let done = try await app.request(.post, "/v1/pick-lists/\(shop.pickList)/complete", token: shop.staff.token)
            #expect(done.json["packaged"].array.count == 1, "\(done.text)")
            #expect(try await app.unbalancedStock(store: shop.store).isEmpty)
        }
    }

    @Test("substitute_price charges the substitute's own price; a paid order is capped whatever the rule")
    func priceRules() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(substitutePrice: 1_200)
            _ = try await app.request(
                .put, "/v1/stores/\(shop.store)/substitution-policy", json: ["defaultPreference": "best_match", "priceRule": "substitute_price"],
                token: shop.manager.token)
            let given = try await app.substitute(shop, quantity: 1)
            #expect(given.json["unitPrice"]["amount"].int == 1_200, "\(given.text)")
            let total = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json["total"]["amount"].int
            #expect(total == 2 * 1_000 + 1_200)

            let paid = try await app.substitutionShop(substitutePrice: 1_200, method: "prepaid")
            _ = try await app.request(
                .put, "/v1/stores/\(paid.store)/substitution-policy", json: ["defaultPreference": "best_match", "priceRule": "substitute_price"],
                token: paid.manager.token)
            try await app.markPaid(paid)
            let capped = try await app.substitute(paid, quantity: 1)
            #expect(capped.json["unitPrice"]["amount"].int == 1_000, "\(capped.text)")
        }
    }

    @Test("refusals: a line that says none, a product a specific line does not name, too many, itself, one already on the order; nothing changes")
    func refusals() async throws {
        try await withApp { app in
            let none = try await app.substitutionShop(preference: ["preference": "none"])
            let refused = try await app.substitute(none)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "substitution_not_allowed")
            #expect(refused.json["error"]["details"]["preference"].string == "none")

            let named = try await app.createProduct(store: none.store, name: "Named", barcode: TestApp.ean13("220000001234"))
            let specific = try await app.substitutionShop(preference: ["preference": "specific", "productIds": [.string(named)]])
            #expect(try await app.substitute(specific).errorCode == "substitution_not_allowed")

            let shop = try await app.substitutionShop()
            #expect(try await app.substitute(shop, quantity: 4).errorCode == "over_substitution")
            let same = try await app.request(
                .post, "/v1/pick-lists/\(shop.pickList)/substitutions",
                json: [
                    "orderId": .string(shop.orderID), "productId": .string(shop.ackee), "substituteProductId": .string(shop.ackee), "quantity": 1,
                ],
                token: shop.staff.token)
            #expect(same.errorCode == "substitution_not_allowed")
            let unknown = try await app.substitute(shop, barcode: TestApp.ean13("299999999999"))
            #expect(unknown.status == .unprocessableContent && unknown.json["error"]["details"]["field"].string == "substituteBarcode")
            #expect(try await app.substitute(shop, quantity: 1).status == .created)
            // A second substitution of the same product: the order already has a line of it.
            #expect(try await app.substitute(shop, quantity: 1).errorCode == "substitute_on_order")
            // Another store's staff do not find the pick list.
            let elsewhere = try await app.signIn(role: .staff, store: try await app.createStore())
            let foreign = try await app.request(
                .post, "/v1/pick-lists/\(shop.pickList)/substitutions",
                json: [
                    "orderId": .string(shop.orderID), "productId": .string(shop.ackee), "substituteBarcode": .string(shop.substituteBarcode),
                    "quantity": 1,
                ],
                token: elsewhere.token)
            #expect(foreign.status == .notFound)
            for shop in [none, specific, shop] { #expect(try await app.unbalancedStock(store: shop.store).isEmpty) }
            #expect(try await sql("SELECT count(*) FROM order_lines WHERE substitution_id IS NOT NULL", on: app.database) == [["1"]])
        }
    }

    @Test("the customer rejects: the substitute's stock goes back, the total drops, a paid order is owed exactly that, and the answer is final")
    func customerRejects() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(substitutePrice: 800, method: "prepaid")
            try await app.markPaid(shop)
            let given = try await app.substitute(shop, quantity: 2)
            let id = try #require(given.json["id"].string)
            // 2 tins at 800 instead of 2 at 1,000: 400 back already.
            var order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
            #expect(order["total"]["amount"].int == 1_000 + 1_600)
            #expect(order["refundDue"]["amount"].int == 400)

            let stranger = try await app.registerCustomer()
            #expect(try await app.decide(shop, id, "reject", as: stranger).status == .notFound)
            let elsewhere = try await app.signIn(role: .staff, store: try await app.createStore())
            #expect(try await app.decide(shop, id, "reject", as: elsewhere).status == .notFound)
            let rejected = try await app.decide(shop, id, "reject")
            #expect(rejected.status == .ok, "\(rejected.text)")
            order = rejected.json
            #expect(order["total"]["amount"].int == 1_000)
            #expect(order["refundDue"]["amount"].int == 2_000)
            let line = try #require(order["lines"].array.first { $0["productId"].string == shop.substitute })
            #expect(line["substitute"]["status"].string == "rejected")
            #expect(line["lineTotal"]["amount"].int == 0)
            #expect(try await app.stock(store: shop.store, product: shop.substitute).reserved == 0)
            #expect(try await app.unbalancedStock(store: shop.store).isEmpty)

            #expect(try await app.decide(shop, id, "reject").status == .ok)
            let changed = try await app.decide(shop, id, "accept")
            #expect(changed.status == .conflict && changed.errorCode == "substitution_decided")
            #expect(try await sql("SELECT count(*) FROM events WHERE type = 'order.substitution_decided'", on: app.database) == [["1"]])
        }
    }

    @Test(
        "a decision racing the hand-over, each on its own connection: decided first and the total shows it, or refused already_collected; never both, never neither"
    )
    func decisionRacesHandOver() async throws {
        try await withApp { app in
            var outcomes: Set<String> = []
            for _ in 0..<6 {
                let shop = try await app.substitutionShop(substitutePrice: 800)
                let id = try #require(try await app.substitute(shop, quantity: 2).json["id"].string)
                let pick = try await app.request(
                    .post, "/v1/pick-lists/\(shop.pickList)/picks",
                    json: ["orderId": .string(shop.orderID), "productId": .string(shop.ackee), "quantity": 1], token: shop.staff.token)
                #expect(pick.status == .ok)
                _ = try await app.request(.post, "/v1/pick-lists/\(shop.pickList)/complete", token: shop.staff.token)
                let order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
                #expect(try await app.pay(order, by: shop.staff).status == .created)
                let token = try #require(order["pickupToken"].string)
                let replies = try await app.race(2) { index, racer in
                    index == 0 ? try await racer.decide(shop, id, "reject") : try await racer.scan(token, by: shop.staff)
                }
                let (decision, scan) = (replies[0], replies[1])
                #expect(scan.status == .ok, "\(scan.text)")
                let status = try await sql(
                    "SELECT l.substitution_status, o.total_amount FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.substitution_id = $1",
                    [id], on: app.database)[0]
                if decision.status == .ok {
                    outcomes.insert("decided first")
                    #expect(status == ["rejected", "1000"])
                } else {
                    outcomes.insert("handed over first")
                    #expect(decision.errorCode == "already_collected", "\(decision.text)")
                    #expect(status == ["accepted", "2600"])
                }
                // Sold what was handed over, no more: a rejected substitute stays on the shelf.
                let sold = try await app.stock(store: shop.store, product: shop.substitute)
                #expect(sold == (status[0] == "rejected" ? (50, 0) : (48, 0)))
                #expect(try await app.unbalancedStock(store: shop.store).isEmpty)
            }
            #expect(!outcomes.isEmpty)
        }
    }
}
