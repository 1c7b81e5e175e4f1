import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Pick lists: listing pending orders, picking at the shelf, completing")
struct PickListServiceTests {
    /// A store with three aisles (walked 1, 2, then the chilled one), four products, and
    /// `orders` pending orders of one customer.
    struct Shop {
        var store: String
        var staff: Session
        var customer: Session
        var products: [String: String]
        var orders: [String]
    }

    func shop(_ app: TestApp, orders count: Int = 2) async throws -> Shop {
        let store = try await app.createStore()
        let canned = try await app.createAisle(store: store, code: "3", name: "Canned goods", walkOrder: 1)
        let bakery = try await app.createAisle(store: store, code: "1", name: "Bakery", walkOrder: 2)
        let dairy = try await app.createAisle(store: store, code: "6", name: "Dairy", walkOrder: 3, zone: "chilled")
        var products: [String: String] = [:]
        products["Mozzarella"] = try await app.createProduct(store: store, name: "Mozzarella", barcode: "4006381333931", aisle: dairy, bay: 2)
        products["Spam"] = try await app.createProduct(store: store, name: "Spam", barcode: "0037600106252", aisle: canned, bay: 4)
        products["Baguette"] = try await app.createProduct(store: store, name: "Baguette", aisle: bakery, bay: 1)
        products["Moringa"] = try await app.createProduct(store: store, name: "Moringa Powder")
        let customer = try await app.registerCustomer()
        var orders: [String] = []
        for index in 0..<count {
            orders.append(
                try await app.createPendingOrder(
                    store: store, customer: customer.userID,
                    lines: [(products["Mozzarella"]!, 2 + index), (products["Spam"]!, 1), (products["Baguette"]!, 1), (products["Moringa"]!, 1)]))
        }
        let staff = try await app.signIn(role: .staff, store: store)
        return Shop(store: store, staff: staff, customer: customer, products: products, orders: orders)
    }

    @Test("a pick list walks the aisles in order, cold goods last, unlocated at the end, one stop per product")
    func route() async throws {
        try await withApp { app in
            let shop = try await shop(app)
            let created = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: ["maxOrders": 10], token: shop.staff.token)
            #expect(created.status == .created)
            let stops = created.json["stops"].array
            #expect(stops.map { $0["name"].string ?? "" } == ["Spam", "Baguette", "Mozzarella", "Moringa Powder"])
            #expect(stops[2]["quantity"].int == 5)  // 2 + 3 across the two orders
            #expect(stops[2]["allocations"].array.count == 2)
            #expect(stops[3]["location"] == .null)
            #expect(created.json["totes"].array.map { $0["label"].string } == ["A", "B"])
            let id = try #require(created.json["id"].string)
            let fetched = try await app.request(.get, "/v1/pick-lists/\(id)", token: shop.staff.token)
            #expect(fetched.json["stops"] == created.json["stops"])
            let open = try await app.request(.get, "/v1/stores/\(shop.store)/pick-lists?status=open", token: shop.staff.token)
            #expect(open.json["items"].array.map { $0["id"].string } == [id])
            #expect(open.json.has("nextCursor") && open.json["nextCursor"] == .null)
            // Every order is on a pick list now: nothing left to list.
            let again = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "no_pending_orders")
        }
    }

    @Test("two staff creating pick lists at once never get the same order")
    func skipLocked() async throws {
        try await withApp { app in
            let shop = try await shop(app, orders: 8)
            let second = try await app.signIn(role: .staff, store: shop.store)
            let tokens = [shop.staff.token, second.token, shop.staff.token, second.token]
            let replies = try await app.race(tokens.count) { index, racer in
                try await racer.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: ["maxOrders": 3], token: tokens[index])
            }
            let listed = replies.filter { $0.status == .created }.flatMap { $0.json["totes"].array.compactMap { $0["orderId"].string } }
            #expect(Set(listed).count == listed.count, "an order landed on two pick lists")
            #expect(listed.count == 8)
            #expect(replies.allSatisfy { $0.status == .created || $0.errorCode == "no_pending_orders" })
        }
    }

    @Test("scanning the wrong product or picking more than ordered is refused")
    func pickMistakes() async throws {
        try await withApp { app in
            let shop = try await shop(app, orders: 1)
            let created = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            let id = try #require(created.json["id"].string)
            let order = shop.orders[0]
            let wrong = try await app.request(
                .post, "/v1/pick-lists/\(id)/picks",
                json: ["orderId": .string(order), "productId": .string(shop.products["Mozzarella"]!), "barcode": "0037600106252", "quantity": 1],
                token: shop.staff.token)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.errorCode == "wrong_product")
            let right = try await app.request(
                .post, "/v1/pick-lists/\(id)/picks",
                json: ["orderId": .string(order), "productId": .string(shop.products["Mozzarella"]!), "barcode": "4006381333931", "quantity": 2],
                token: shop.staff.token)
            #expect(right.status == .ok)
            #expect(right.json["remaining"].int == 0)
            let over = try await app.request(
                .post, "/v1/pick-lists/\(id)/picks", json: ["orderId": .string(order), "barcode": "4006381333931", "quantity": 1],
                token: shop.staff.token)
            #expect(over.errorCode == "over_pick")
            let picked = try await sql(
                "SELECT picked_quantity FROM order_lines WHERE order_id = $1 AND product_id = $2",
                [order, shop.products["Mozzarella"]!], on: app.database)
            #expect(picked[0][0] == "2")
        }
    }

    @Test("completing packages fully picked or shorted orders; a short line lowers the total and frees its stock")
    func shortPick() async throws {
        try await withApp { app in
            let shop = try await shop(app, orders: 2)
            let created = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            let id = try #require(created.json["id"].string)
            let (first, second) = (shop.orders[0], shop.orders[1])
            func pick(_ order: String, _ product: String, _ quantity: Int, short: Bool = false) async throws -> TestReply {
                try await app.request(
                    .post, "/v1/pick-lists/\(id)/picks",
                    json: [
                        "orderId": .string(order), "productId": .string(shop.products[product]!), "quantity": .int(quantity), "short": .bool(short),
                    ],
                    token: shop.staff.token)
            }
            // First order: everything, but only 1 of 2 Mozzarella (closed short) and no Moringa at all.
            #expect(try await pick(first, "Mozzarella", 1, short: true).status == .ok)
            #expect(try await pick(first, "Spam", 1).status == .ok)
            #expect(try await pick(first, "Baguette", 1).status == .ok)
            #expect(try await pick(first, "Moringa", 0, short: true).status == .ok)
            // Second order: only Spam; it stays pending.
            #expect(try await pick(second, "Spam", 1).status == .ok)
            let before = try await sql("SELECT reserved FROM stock WHERE product_id = $1", [shop.products["Mozzarella"]!], on: app.database)
            #expect(before[0][0] == "5")
            let done = try await app.request(.post, "/v1/pick-lists/\(id)/complete", token: shop.staff.token)
            #expect(done.status == .ok)
            #expect(done.json["packaged"].array.map(\.string) == [first])
            #expect(done.json["leftPending"].array.map(\.string) == [second])
            let order = try await sql("SELECT status, total_amount FROM orders WHERE id = $1", [first], on: app.database)
            #expect(order[0][0] == "packaged")
            #expect(order[0][1] == "3000")  // 1 Mozzarella + Spam + Baguette at 1000 each
            let after = try await sql("SELECT reserved FROM stock WHERE product_id = $1", [shop.products["Mozzarella"]!], on: app.database)
            #expect(after[0][0] == "4")  // the unpicked unit is free again
            let moringa = try await sql("SELECT reserved FROM stock WHERE product_id = $1", [shop.products["Moringa"]!], on: app.database)
            #expect(moringa[0][0] == "1")  // only the second order's unit is still held
            let event = try await sql(
                "SELECT from_status, to_status, reason FROM order_events WHERE order_id = $1 ORDER BY id DESC LIMIT 1", [first], on: app.database)
            #expect(event[0][0] == "pending" && event[0][1] == "packaged")
            #expect(event[0][2]?.contains("short") == true)
            // The pick list is closed; the pending order can go on a new one.
            #expect(try await app.request(.post, "/v1/pick-lists/\(id)/complete", token: shop.staff.token).errorCode == "pick_list_closed")
            let next = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            #expect(next.json["totes"].array.map { $0["orderId"].string } == [second])
        }
    }

    @Test("the printable sheets: HTML, and text never wider than the printer")
    func sheets() async throws {
        try await withApp { app in
            let shop = try await shop(app)
            let created = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            let id = try #require(created.json["id"].string)
            let html = try await app.request(.get, "/v1/pick-lists/\(id).html", token: shop.staff.token)
            #expect(html.status == .ok)
            #expect(html.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(html.text.contains("Mozzarella"))
            for width in [80, 42] {
                let text = try await app.request(.get, "/v1/pick-lists/\(id).txt?width=\(width)", token: shop.staff.token)
                #expect(text.status == .ok)
                #expect(text.text.contains("Spam"))
                #expect(text.text.split(separator: "\n").allSatisfy { $0.count <= width })
            }
            #expect(try await app.request(.get, "/v1/pick-lists/\(id).txt?width=50", token: shop.staff.token).status == .unprocessableContent)
        }
    }

    @Test("customers and other stores' staff cannot see or make pick lists")
    func access() async throws {
        try await withApp { app in
            let shop = try await shop(app)
            let created = try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: shop.staff.token)
            let id = try #require(created.json["id"].string)
            let otherStore = try await app.createStore(code: "OTHER-1")
            let stranger = try await app.signIn(role: .staff, store: otherStore)
            #expect(try await app.request(.post, "/v1/stores/\(shop.store)/pick-lists", json: [:], token: stranger.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/pick-lists/\(id)", token: stranger.token).status == .notFound)
            #expect(try await app.request(.get, "/v1/pick-lists/\(id).html", token: stranger.token).status == .notFound)
            #expect(try await app.request(.get, "/v1/pick-lists/\(id).txt", token: stranger.token).status == .notFound)
            // Another store's staff can neither pick on the list nor complete it: not found, and the list is untouched.
            let order = try #require(created.json["totes"][0]["orderId"].string)
            let product = try #require(created.json["stops"][0]["productId"].string)
            let pick = try await app.request(
                .post, "/v1/pick-lists/\(id)/picks", json: ["orderId": .string(order), "productId": .string(product), "quantity": 1],
                token: stranger.token)
            #expect(pick.status == .notFound)
            #expect(try await app.request(.post, "/v1/pick-lists/\(id)/complete", token: stranger.token).status == .notFound)
            let theirs = try await app.request(.get, "/v1/stores/\(otherStore)/pick-lists", token: stranger.token)
            #expect(theirs.status == .ok && theirs.json["items"].array.isEmpty)
            let after = try await app.request(.get, "/v1/pick-lists/\(id)", token: shop.staff.token)
            #expect(after.json["status"].string == "open")
            #expect(after.json["stops"][0]["allocations"][0]["picked"].int == 0)
            #expect(try await app.request(.get, "/v1/pick-lists/\(id)", token: shop.customer.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/pick-lists/\(id)").status == .unauthorized)
        }
    }

    @Test("a short-picked order is paid and collected for what is in the bags; stock sells only that")
    func shortPickCollected() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let aisle = try await app.createAisle(store: store, code: "2", name: "Spices", walkOrder: 1)
            let chilli = try await app.createProduct(store: store, name: "Chilli Powder", price: 500, onHand: 10, aisle: aisle)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(chilli, 3)])
            let order = try await app.checkout(customer).json
            let orderID = try #require(order["id"].string)
            let staff = try await app.signIn(role: .staff, store: store)
            let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
            let listID = try #require(list.json["id"].string)
            let picked = try await app.request(
                .post, "/v1/pick-lists/\(listID)/picks",
                json: ["orderId": .string(orderID), "productId": .string(chilli), "quantity": 2, "short": true], token: staff.token)
            #expect(picked.json["short"].bool == true)
            #expect(try await app.request(.post, "/v1/pick-lists/\(listID)/complete", json: [:], token: staff.token).status == .ok)
            #expect(try await app.stock(store: store, product: chilli) == (10, 2))
            let packaged = try await app.request(.get, "/v1/orders/\(orderID)", token: customer.token).json
            #expect(packaged["status"].string == "packaged")
            #expect(packaged["total"]["amount"].int == 1000)
            #expect(try await app.pay(packaged, by: staff).status == .created)
            let scanned = try await app.scan(try #require(order["pickupToken"].string), by: staff)
            #expect(scanned.status == .ok)
            #expect(try await app.stock(store: store, product: chilli) == (8, 0))
        }
    }

    @Test("cancelling a short-packaged order gives back only what it still held")
    func shortPickCancelled() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let chilli = try await app.createProduct(store: store, name: "Chilli Powder", onHand: 10)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(chilli, 3)])
            let orderID = try #require(try await app.checkout(customer).json["id"].string)
            let staff = try await app.signIn(role: .staff, store: store)
            let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
            let listID = try #require(list.json["id"].string)
            _ = try await app.request(
                .post, "/v1/pick-lists/\(listID)/picks",
                json: ["orderId": .string(orderID), "productId": .string(chilli), "quantity": 1, "short": true], token: staff.token)
            _ = try await app.request(.post, "/v1/pick-lists/\(listID)/complete", json: [:], token: staff.token)
            #expect(try await app.stock(store: store, product: chilli) == (10, 1))
            #expect(try await app.transition(orderID, to: "cancelled", by: staff).status == .ok)
            #expect(try await app.stock(store: store, product: chilli) == (10, 0))
        }
    }
}
