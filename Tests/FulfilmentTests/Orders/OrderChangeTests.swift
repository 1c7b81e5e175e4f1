import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 48: a customer changes their order (adds a line, removes one, changes a quantity) until
/// the cut-off, the moment it joins a pick list. Each change is one transaction: stock given back
/// and taken (never oversold), the coupon evaluated again, the price guarantee kept, the pickup
/// token unchanged, a `changed` history entry and `order.changed`.
@Suite("Changing an order until the cut-off")
struct OrderChangeTests {
    /// A store with rice (10.00, 10 on hand), beans (5.00, 5) and milk (2.50, 4), and a customer
    /// whose order holds 2 rice and 1 beans.
    struct Shop {
        var store: String
        var customer: Session
        var rice: String
        var beans: String
        var milk: String
        var order: JSONValue
        var id: String { order["id"].string ?? "" }
    }

    static func shop(_ app: TestApp, riceOnHand: Int = 10) async throws -> Shop {
        let store = try await app.createStore()
        let rice = try await app.createProduct(store: store, name: "Rice", price: 1_000, onHand: riceOnHand)
        let beans = try await app.createProduct(store: store, name: "Beans", price: 500, onHand: 5)
        let milk = try await app.createProduct(store: store, name: "Milk", price: 250, onHand: 4)
        let customer = try await app.registerCustomer()
        try await app.fillCart(customer, store: store, [(rice, 2), (beans, 1)])
        let placed = try await app.checkout(customer)
        guard placed.status == .created else { throw TestSetupError("checkout: \(placed.status) \(placed.text)") }
        return Shop(store: store, customer: customer, rice: rice, beans: beans, milk: milk, order: placed.json)
    }

    static func change(_ app: TestApp, _ order: String, _ lines: [(String, Int)], prices: [String: Int] = [:], by session: Session)
        async throws -> TestReply
    {
        let entries: [JSONValue] = lines.map { product, quantity in
            var entry: [String: JSONValue] = ["productId": .string(product), "quantity": .int(quantity)]
            if let price = prices[product] { entry["unitPrice"] = .int(price) }
            return .object(entry)
        }
        return try await app.request(.patch, "/v1/orders/\(order)/lines", json: ["lines": .array(entries)], token: session.token)
    }

    static func line(_ order: JSONValue, _ product: String) -> JSONValue? {
        order["lines"].array.first { $0["productId"].string == product }
    }

    @Test("one more rice, the beans removed, milk added: stock follows, old lines keep their price, the token stays, history and event say what")
    func changeAddRemove() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            // The catalogue's rice price goes up after checkout: the order's rice keeps its 10.00.
            try await sql("UPDATE products SET price_amount = 1200 WHERE id = $1", [shop.rice], on: app.database)

            let changed = try await Self.change(app, shop.id, [(shop.rice, 3), (shop.beans, 0), (shop.milk, 2)], by: shop.customer)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(Self.line(changed.json, shop.rice)?["quantity"].int == 3)
            #expect(Self.line(changed.json, shop.rice)?["unitPrice"]["amount"].int == 1_000)
            #expect(Self.line(changed.json, shop.beans) == nil)
            #expect(Self.line(changed.json, shop.milk)?["quantity"].int == 2)
            #expect(Self.line(changed.json, shop.milk)?["unitPrice"]["amount"].int == 250)
            #expect(changed.json["total"]["amount"].int == 3 * 1_000 + 2 * 250)
            #expect(changed.json["pickupToken"].string == shop.order["pickupToken"].string)
            #expect(shop.order["changeable"].bool == true)
            #expect(changed.json["changeable"].bool == true)

            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == 3)
            #expect(try await app.stock(store: shop.store, product: shop.beans).reserved == 0)
            #expect(try await app.stock(store: shop.store, product: shop.milk).reserved == 2)

            let entry = try #require(changed.json["history"].array.last)
            #expect(entry["kind"].string == "changed")
            #expect(entry["by"].string == shop.customer.userID)
            #expect(entry["reason"].string == "Beans 1 → 0, Milk 0 → 2, Rice 2 → 3")

            let events = try await sql(
                "SELECT data::text FROM events WHERE order_id = $1 AND type = 'order.changed'", [shop.id], on: app.database)
            #expect(events.count == 1)
            let data = try JSONDecoder().decode(JSONValue.self, from: Data((events.first?[0] ?? "{}").utf8))
            #expect(data["changes"].array.count == 3)
            #expect(data["changes"].array.first?["name"].string == "Beans")
            #expect(data["changes"].array.first?["before"].int == 1)
            #expect(data["changes"].array.first?["after"].int == 0)
            #expect(data["order"]["id"].string == shop.id)

            // The same lines again change nothing and add no history.
            let same = try await Self.change(app, shop.id, [(shop.rice, 3)], by: shop.customer)
            #expect(same.status == .ok)
            #expect(same.json["history"].array.count == changed.json["history"].array.count)
        }
    }

    @Test("a price the customer did not see is price_changed; a short line is insufficient_stock; either changes nothing")
    func priceAndStock() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let stale = try await Self.change(app, shop.id, [(shop.milk, 1)], prices: [shop.milk: 200], by: shop.customer)
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == "price_changed")
            #expect(stale.json["error"]["details"]["lines"][0]["price"]["amount"].int == 250)
            #expect(stale.json["error"]["details"]["lines"][0]["shownPrice"]["amount"].int == 200)

            let short = try await Self.change(app, shop.id, [(shop.rice, 1), (shop.milk, 5)], by: shop.customer)
            #expect(short.status == .conflict)
            #expect(short.errorCode == "insufficient_stock")
            #expect(short.json["error"]["details"]["lines"][0]["productId"].string == shop.milk)
            #expect(short.json["error"]["details"]["lines"][0]["requested"].int == 5)
            #expect(short.json["error"]["details"]["lines"][0]["available"].int == 4)
            // Nothing of it happened: the rice is still 2.
            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == 2)
            #expect(try await app.stock(store: shop.store, product: shop.milk).reserved == 0)

            let seen = try await Self.change(app, shop.id, [(shop.milk, 4)], prices: [shop.milk: 250], by: shop.customer)
            #expect(seen.status == .ok, "\(seen.text)")
            #expect(try await app.stock(store: shop.store, product: shop.milk).reserved == 4)
        }
    }

    @Test("refused: a product named twice, every line removed, another's order, staff, an unknown product, a cancelled order")
    func refusals() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let twice = try await Self.change(app, shop.id, [(shop.rice, 1), (shop.rice, 2)], by: shop.customer)
            #expect(twice.status == .unprocessableContent)
            #expect(twice.json["error"]["details"]["field"].string == "lines")

            let empty = try await Self.change(app, shop.id, [(shop.rice, 0), (shop.beans, 0)], by: shop.customer)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorCode == "order_would_be_empty")

            let stranger = try await app.registerCustomer()
            #expect(try await Self.change(app, shop.id, [(shop.rice, 1)], by: stranger).status == .notFound)
            let staff = try await app.signIn(role: .staff, store: shop.store)
            #expect(try await Self.change(app, shop.id, [(shop.rice, 1)], by: staff).status == .forbidden)
            let unknown = try await Self.change(app, shop.id, [(UUID().uuidString, 1)], by: shop.customer)
            #expect(unknown.status == .notFound)

            let cancelled = try await app.request(.post, "/v1/orders/\(shop.id)/cancel", token: shop.customer.token)
            #expect(cancelled.status == .ok)
            let late = try await Self.change(app, shop.id, [(shop.rice, 1)], by: shop.customer)
            #expect(late.status == .conflict)
            #expect(late.errorCode == "order_not_changeable")
            #expect(late.json["error"]["details"]["status"].string == "cancelled")
        }
    }

    @Test("a coupon is shared again while the order stays above its minimum spend, and lost (its redemption given back) below it")
    func couponLostBelowMinimum() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.createProduct(store: store, name: "Rice", price: 1_000, onHand: 10)
            let manager = try await app.signIn(role: .manager, store: store)
            let made = try await app.request(
                .post, "/v1/stores/\(store)/coupons",
                json: ["code": "TENOFF", "percentOffBasisPoints": 1_000, "minimumSpend": ["amount": 2_000, "currency": "JMD"]],
                token: manager.token)
            #expect(made.status == .created, "\(made.text)")
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(rice, 3)])
            let applied = try await app.request(.put, "/v1/cart/coupon", json: ["code": "TENOFF"], token: customer.token)
            #expect(applied.status == .ok, "\(applied.text)")
            let placed = try await app.checkout(customer)
            #expect(placed.json["discount"]["amount"].int == 300)
            let id = try #require(placed.json["id"].string)

            let more = try await Self.change(app, id, [(rice, 4)], by: customer)
            #expect(more.status == .ok, "\(more.text)")
            #expect(more.json["discount"]["amount"].int == 400)
            #expect(more.json["total"]["amount"].int == 3_600)

            let less = try await Self.change(app, id, [(rice, 1)], by: customer)
            #expect(less.status == .ok, "\(less.text)")
            #expect(less.json["discount"]["amount"].int == 0)
            #expect(less.json["total"]["amount"].int == 1_000)
            let redemption = try await sql(
                "SELECT released_at IS NOT NULL FROM coupon_redemptions WHERE order_id = $1", [id], on: app.database)
            #expect(redemption.first?[0] == "t")
        }
    }

    @Test("after it joins a pick list the order is locked for picking")
    func lockedAfterPickList() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let staff = try await app.signIn(role: .staff, store: shop.store)
            let list = try await app.request(
                .post, "/v1/stores/\(shop.store)/pick-lists", json: ["orderIds": [.string(shop.id)]], token: staff.token)
            #expect(list.status == .created, "\(list.text)")
            let locked = try await Self.change(app, shop.id, [(shop.rice, 3)], by: shop.customer)
            #expect(locked.status == .conflict)
            #expect(locked.errorCode == "order_locked_for_picking")
            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == 2)
            let read = try await app.request(.get, "/v1/orders/\(shop.id)", token: shop.customer.token)
            #expect(read.json["changeable"].bool == false)
        }
    }

    @Test("a change waiting for a pick list's claim of the order sees the list once it commits: 409 order_locked_for_picking")
    func changeWaitsForPickListClaim() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let staff = try await app.signIn(role: .staff, store: shop.store)
            // The claim a pick list makes (`PickListQueries.claimOrders`), held open on a connection of its own.
            let holder = try HeldConnection(app.database)
            try await holder.run("BEGIN")
            try await holder.run("SELECT 1 FROM orders WHERE id = $1 FOR UPDATE", [shop.id])
            let list = UUID().uuidString.lowercased()
            try await holder.run("INSERT INTO pick_lists (id, store_id, created_by) VALUES ($1, $2, $3)", [list, shop.store, staff.userID])
            try await holder.run(
                "INSERT INTO pick_list_orders (store_id, pick_list_id, order_id, tote) VALUES ($1, $2, $3, 'A')", [shop.store, list, shop.id])
            let port = try app.livePort
            let change = Task {
                try await SeparateConnections.send(
                    .init(
                        method: "PATCH", path: "/v1/orders/\(shop.id)/lines",
                        json: ["lines": [["productId": .string(shop.rice), "quantity": 3]]], token: shop.customer.token), port: port)
            }
            var waiting = 0
            for _ in 0..<2000 where waiting < 1 {
                try await Task.sleep(for: .milliseconds(10))
                waiting =
                    Int(
                        try await sql(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                            on: app.database)[0][0] ?? "0") ?? 0
            }
            #expect(waiting == 1, "the change waits for the claim")
            try await holder.run("COMMIT")
            let reply = try await change.value
            #expect(reply.status == .conflict, "\(reply.text)")
            #expect(reply.errorCode == "order_locked_for_picking")
            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == 2)
        }
    }

    @Test("a change racing a pick list for the order, each on its own connection: one wins, a loser is told why, stock agrees")
    func raceWithPickList() async throws {
        try await withApp { app in
            let shop = try await Self.shop(app)
            let staff = try await app.signIn(role: .staff, store: shop.store)
            let port = try app.livePort
            let replies = try await SeparateConnections.race(
                [
                    .init(
                        method: "PATCH", path: "/v1/orders/\(shop.id)/lines",
                        json: ["lines": [["productId": .string(shop.rice), "quantity": 3]]], token: shop.customer.token),
                    .init(path: "/v1/stores/\(shop.store)/pick-lists", json: ["orderIds": [.string(shop.id)]], token: staff.token),
                ], port: port)
            let (change, list) = (replies[0], replies[1])
            // Overlapping, exactly one wins; one after the other (the change first), both may.
            #expect(change.status == .ok || list.status == .created, "\(change.text) / \(list.text)")
            #expect(change.status == .ok || change.errorCode == "order_locked_for_picking", "\(change.text)")
            #expect(list.status == .created || list.errorCode == "no_pending_orders", "\(list.text)")
            let order = try await app.request(.get, "/v1/orders/\(shop.id)", token: shop.customer.token).json
            let rice = try #require(Self.line(order, shop.rice)?["quantity"].int)
            #expect(rice == (change.status == .ok ? 3 : 2))
            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == rice)
            #expect(order["changeable"].bool == (list.status != .created))
        }
    }

    @Test("two changes racing for the last unit of rice, each on its own connection: one gets it, the other insufficient_stock")
    func raceForLastUnits() async throws {
        try await withApp { app in
            // 4 rice: this order holds 2, the other customer's 1, and 1 is free.
            let shop = try await Self.shop(app, riceOnHand: 4)
            let other = try await app.registerCustomer()
            try await app.fillCart(other, store: shop.store, [(shop.rice, 1)])
            let second = try await app.checkout(other)
            let secondID = try #require(second.json["id"].string)
            #expect(try await app.stock(store: shop.store, product: shop.rice).reserved == 3)

            let port = try app.livePort
            let replies = try await SeparateConnections.race(
                [
                    .init(
                        method: "PATCH", path: "/v1/orders/\(shop.id)/lines",
                        json: ["lines": [["productId": .string(shop.rice), "quantity": 3]]], token: shop.customer.token),
                    .init(
                        method: "PATCH", path: "/v1/orders/\(secondID)/lines",
                        json: ["lines": [["productId": .string(shop.rice), "quantity": 2]]], token: other.token),
                ], port: port)
            #expect(replies.filter { $0.status == .ok }.count == 1, "\(replies.map(\.text))")
            #expect(replies.filter { $0.errorCode == "insufficient_stock" }.count == 1)
            #expect(try await app.stock(store: shop.store, product: shop.rice) == (onHand: 4, reserved: 4))
        }
    }
}
