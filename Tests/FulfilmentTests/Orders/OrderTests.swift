import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Order state machine, cancellation, visibility")
struct OrderTests {
    @Test("the rule lives on OrderStatus")
    func rule() {
        #expect(OrderStatus.pending.allowedTargets == [.packaged, .cancelled])
        #expect(OrderStatus.packaged.canTransition(to: .delivering))
        #expect(OrderStatus.packaged.canTransition(to: .completed))
        #expect(!OrderStatus.pending.canTransition(to: .completed))
        #expect(!OrderStatus.pending.canTransition(to: .delivering))
        #expect(OrderStatus.delivering.manualTargets == [.cancelled])
        #expect(OrderStatus.completed.allowedTargets.isEmpty && OrderStatus.cancelled.allowedTargets.isEmpty)
        #expect(OrderStatus.allCases.map(\.progress) == [0.25, 0.5, 0.75, 1.0, 0])
    }

    @Test("invalid transitions are 409 invalid_transition with the allowed targets; completed only by scan")
    func invalidTransitions() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            let skip = try await app.transition(id, to: "delivering", by: staff)
            #expect(skip.status == .conflict)
            #expect(skip.errorCode == "invalid_transition")
            #expect(skip.json["error"]["details"]["allowed"] == ["packaged", "cancelled"])
            let complete = try await app.transition(id, to: "completed", by: staff)
            #expect(complete.errorCode == "invalid_transition")
            #expect(try await app.transition(id, to: "pending", by: staff).errorCode == "invalid_transition")
            #expect(try await app.transition(id, to: "nonsense", by: staff).status == .unprocessableContent)
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.transition(id, to: "completed", by: staff).json["error"]["details"]["allowed"] == ["delivering", "cancelled"])
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            let after = try await app.transition(id, to: "packaged", by: staff)
            #expect(after.json["error"]["details"]["allowed"] == [])
        }
    }

    @Test("two staff racing to pack: one transition, one 409")
    func racingStaff() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let first = try await app.signIn(role: .staff, store: store)
            let second = try await app.signIn(role: .manager, store: store)
            for _ in 0..<3 {
                let (_, order, _) = try await app.placeOrder(store: store)
                let id = order["id"].string!
                let staff = [first, second]
                let statuses = try await app.race(2) { index, racer in
                    try await racer.transition(id, to: "packaged", by: staff[index]).status.code
                }
                #expect(statuses.sorted() == [200, 409])
                let events = try await sql("SELECT count(*) FROM order_events WHERE order_id = $1 AND to_status = 'packaged'", [id], on: app.database)
                #expect(events[0][0] == "1")
            }
        }
    }

    @Test("cancelling returns the reserved stock; customers may cancel only while pending")
    func cancellation() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, product) = try await app.placeOrder(store: store, quantity: 3)
            #expect(try await app.stock(store: store, product: product) == (10, 3))
            let cancelled = try await app.request(
                .post, "/v1/orders/\(order["id"].string!)/cancel?reason=changed%20my%20mind", token: customer.token)
            #expect(cancelled.status == .ok)
            #expect(cancelled.json["status"].string == "cancelled")
            #expect(cancelled.json["history"].array.last?["reason"].string == "changed my mind")
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            #expect(
                try await app.request(.post, "/v1/orders/\(order["id"].string!)/cancel", token: customer.token).errorCode
                    == "invalid_transition")

            let (customer2, order2, product2) = try await app.placeOrder(store: store, quantity: 2)
            let id2 = order2["id"].string!
            #expect(try await app.transition(id2, to: "packaged", by: staff).status == .ok)
            #expect(try await app.request(.post, "/v1/orders/\(id2)/cancel", token: customer2.token).errorCode == "invalid_transition")
            #expect(try await app.transition(id2, to: "delivering", by: staff).status == .ok)
            #expect(try await app.transition(id2, to: "cancelled", by: staff).status == .ok)
            #expect(try await app.stock(store: store, product: product2) == (10, 0))
            // A cancelled order's token no longer hands anything over.
            #expect(try await app.scan(order2["pickupToken"].string!, by: staff).errorCode == "order_cancelled")
        }
    }

    @Test("another customer, or staff of another store, gets 404 for an order; its receipt is its customer's alone")
    func idor() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let otherStore = try await app.createStore()
            let (owner, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            let stranger = try await app.registerCustomer()
            let otherStaff = try await app.signIn(role: .staff, store: otherStore)
            let ownStaff = try await app.signIn(role: .staff, store: store)
            for path in ["/v1/orders/\(id)", "/v1/orders/\(id)/receipt.png", "/v1/orders/\(id)/receipt.svg"] {
                let isReceipt = path.contains("receipt")
                #expect(try await app.request(.get, path, token: stranger.token).status == .notFound, "\(path)")
                // The receipt is the customer's alone: no staff member reads it (see ReceiptTests).
                #expect(try await app.request(.get, path, token: otherStaff.token).status == (isReceipt ? .forbidden : .notFound), "\(path)")
                #expect(try await app.request(.get, path, token: owner.token).status == .ok, "\(path)")
                #expect(try await app.request(.get, path, token: ownStaff.token).status == (isReceipt ? .forbidden : .ok), "\(path)")
                #expect(try await app.request(.get, path).status == .unauthorized, "\(path)")
            }
            #expect(try await app.request(.post, "/v1/orders/\(id)/cancel", token: stranger.token).status == .notFound)
            #expect(try await app.transition(id, to: "packaged", by: otherStaff).status == .notFound)
            #expect(try await app.request(.get, "/v1/orders", token: stranger.token).json["items"] == [])
            #expect(try await app.request(.get, "/v1/orders/not-a-uuid", token: owner.token).status == .notFound)
            // The board is per store.
            #expect(try await app.request(.get, "/v1/stores/\(store)/orders", token: otherStaff.token).status == .forbidden)
            let board = try await app.request(.get, "/v1/stores/\(store)/orders", token: ownStaff.token)
            #expect(board.json["items"].array.map { $0["id"].string } == [id])
            #expect(try await app.request(.get, "/v1/stores/\(store)/orders?status=completed", token: ownStaff.token).json["items"] == [])
        }
    }

    @Test("orders page newest first with a cursor")
    func paging() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 50)
            let customer = try await app.registerCustomer()
            var ids: [String] = []
            for _ in 0..<5 {
                try await app.fillCart(customer, store: store, [(product, 1)])
                ids.append(try await app.checkout(customer).json["id"].string!)
            }
            let first = try await app.request(.get, "/v1/orders?limit=2", token: customer.token)
            let cursor = try #require(first.json["nextCursor"].string)
            let second = try await app.request(.get, "/v1/orders?limit=2&cursor=\(cursor)", token: customer.token)
            let third = try await app.request(.get, "/v1/orders?limit=2&cursor=\(second.json["nextCursor"].string!)", token: customer.token)
            let seen = (first.json["items"].array + second.json["items"].array + third.json["items"].array).compactMap { $0["id"].string }
            #expect(seen == ids.reversed())
            #expect(third.json["nextCursor"] == .null)
        }
    }
}
