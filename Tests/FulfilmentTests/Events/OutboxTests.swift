import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The outbox (issue 14): every change a partner follows writes its event in the same
/// transaction, numbered per store; a change that rolls back writes none.
@Suite("Events: the outbox written with every change")
struct OutboxTests {
    struct StoredEvent {
        var sequence: Int
        var type: String
        var data: JSONValue
    }

    /// A store's events, in sequence order, as the outbox holds them, once the app has numbered
    /// them (just after they commit, migration 019).
    static func events(_ app: TestApp, store: String) async throws -> [StoredEvent] {
        try await waitUntilNumbered(app, store: store)
        return try await sql("SELECT sequence, type, data::text FROM events WHERE store_id = $1 ORDER BY sequence", [store], on: app.database)
            .map { row in
                StoredEvent(
                    sequence: Int(row[0]!)!, type: row[1]!,
                    data: (try? JSONDecoder().decode(JSONValue.self, from: Data(row[2]!.utf8))) ?? .null)
            }
    }

    @Test("an order's life is one event per change, numbered 1, 2, 3… in its store, the order as the board shows it")
    func orderLife() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store, quantity: 2)
            let id = order["id"].string!
            let board = try await app.request(.get, "/v1/stores/\(store)/orders", token: staff.token).json["items"][0]
            #expect(board["id"].string == id)

            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.transition(id, to: "delivering", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status == .ok)

            let events = try await Self.events(app, store: store)
            #expect(
                events.map(\.type) == [
                    "order.placed", "order.ready_for_pickup", "order.at_collection_point", "payment.succeeded", "order.collected",
                ])
            #expect(events.map(\.sequence) == [1, 2, 3, 4, 5])
            // The placed event's order is the board's item, field for field.
            let placed = events[0].data["order"]
            for field in [
                "id", "number", "storeId", "customerName", "status", "paymentMethod", "paymentStatus", "total", "itemCount", "placedAt", "progress",
            ] {
                #expect(placed[field] == board[field], "\(field)")
            }
            #expect(events[1].data["order"]["status"] == "packaged")
            #expect(events[3].data["payment"]["amount"] == order["total"])
            #expect(events[3].data["payment"]["method"] == "cash")
            #expect(events[4].data["order"]["status"] == "completed")
            #expect(events[4].data["order"]["paymentStatus"] == "paid")
        }
    }

    @Test("a checkout that fails writes no event; a cancellation says why and by whom")
    func rollbackAndCancellation() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, product) = try await app.placeOrder(store: store)
            try await app.fillCart(customer, store: store, [(product, 50)])
            let refused = try await app.checkout(customer)
            #expect(refused.errorCode == "insufficient_stock")
            #expect(try await Self.events(app, store: store).map(\.type) == ["order.placed"])

            let cancelled = try await app.request(
                .post, "/v1/orders/\(order["id"].string!)/transitions",
                json: ["to": "cancelled", "reason": "Customer phoned to cancel"], token: staff.token)
            #expect(cancelled.status == .ok)
            let (own, second, _) = try await app.placeOrder(store: store)
            #expect(try await app.request(.post, "/v1/orders/\(second["id"].string!)/cancel", token: own.token).status == .ok)

            let events = try await Self.events(app, store: store)
            #expect(events.map(\.type) == ["order.placed", "order.cancelled", "order.placed", "order.cancelled"])
            #expect(events[1].data["reason"] == "Customer phoned to cancel")
            #expect(events[1].data["byStaff"] == true)
            #expect(events[3].data["byStaff"] == false)
            #expect(events.map(\.sequence) == [1, 2, 3, 4])
        }
    }

    @Test("stock.low when on hand falls to the reorder point; back in stock tells each fan who shops there")
    func stockEvents() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let elsewhere = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let product = try await app.addProduct(store: store, name: "Blue Mountain Coffee", onHand: 3)
            try await sql("UPDATE stock SET min_supply = 2 WHERE product_id = $1", [product], on: app.database)
            func adjust(_ delta: Int) async throws {
                let reply = try await app.request(
                    .post, "/v1/stores/\(store)/stock/\(product)/adjustments", json: ["delta": .int(delta), "reason": "count"],
                    token: manager.token)
                #expect(reply.status == .created, "\(reply.text)")
            }
            try await adjust(-1)  // 3 → 2: at the reorder point
            try await adjust(-1)  // 2 → 1: already low, no second event
            var events = try await Self.events(app, store: store)
            #expect(events.map(\.type) == ["stock.low"])
            #expect(events.first?.data["product"]["name"] == "Blue Mountain Coffee")
            #expect(events.first?.data["onHand"] == 2)
            #expect(events.first?.data["minSupply"] == 2)

            // Sold out, then received: only the fan whose chosen store this is hears of it.
            try await adjust(-1)
            let fan = try await app.registerCustomer()
            let farAway = try await app.registerCustomer()
            let notAFan = try await app.registerCustomer()
            for (customer, chosen) in [(fan, store), (farAway, elsewhere), (notAFan, store)] {
                #expect(try await app.request(.put, "/v1/me/store", json: ["storeId": .string(chosen)], token: customer.token).status == .ok)
            }
            for customer in [fan, farAway] {
                #expect(try await app.request(.put, "/v1/favourites/\(product)", token: customer.token).status.code < 300)
            }
            try await adjust(12)
            try await adjust(1)  // still in stock: nothing new
            events = try await Self.events(app, store: store)
            #expect(events.map(\.type) == ["stock.low", "favourite.back_in_stock"])
            #expect(events.last?.data["customerId"].string == fan.userID)
            #expect(events.last?.data["available"] == 12)
        }
    }

    @Test("the ready message again: only when ready, once a minute, in the history, one of two clicks at once")
    func readyAgain() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let otherStaff = try await app.signIn(role: .staff, store: try await app.createStore())
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            let path = "/v1/orders/\(id)/notifications/ready"

            #expect(try await app.request(.post, path, token: staff.token).errorCode == "not_ready")
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            // Packed a moment ago: the first message has just gone.
            let tooSoon = try await app.request(.post, path, token: staff.token)
            #expect(tooSoon.status == .tooManyRequests)
            #expect(tooSoon.errorCode == "notification_too_soon")
            #expect(Int(tooSoon.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(try await app.request(.post, path, token: customer.token).status == .forbidden)
            #expect(try await app.request(.post, path, token: otherStaff.token).status == .notFound)

            // A minute on: two staff click at once; one message goes.
            try await sql("UPDATE events SET occurred_at = occurred_at - interval '2 minutes' WHERE order_id = $1", [id], on: app.database)
            let clicks = try await app.race(2) { _, own in try await own.request(.post, path, token: staff.token) }
            #expect(clicks.map(\.status.code).sorted() == [200, 429])
            let sent = clicks.first { $0.status == .ok }!
            let last = sent.json["history"].array.last!
            #expect(last["from"] == "packaged" && last["to"] == "packaged")
            let events = try await Self.events(app, store: store)
            #expect(events.map(\.type) == ["order.placed", "order.ready_for_pickup", "order.ready_for_pickup"])
            #expect(events.last?.data["repeated"] == true)
            #expect(events[1].data.has("repeated") == false)
        }
    }
}
