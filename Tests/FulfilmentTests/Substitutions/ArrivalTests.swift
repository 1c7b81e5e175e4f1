import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("\"I'm here\": the customer says they have arrived, the board and the desk see it, and the wait is measured")
struct ArrivalTests {
    @Test(
        "not before it is packed (409 not_ready with the slot's start), then once packed: the order, the board and the event carry the bay; again updates where, not when"
    )
    func arrival() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = try #require(order["id"].string)
            let early = try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": "3"], token: customer.token)
            #expect(early.status == .conflict)
            #expect(early.errorCode == "not_ready")
            #expect(early.json["error"]["details"]["status"].string == "pending")

            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            let stranger = try await app.registerCustomer()
            #expect(try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": "3"], token: stranger.token).status == .notFound)
            #expect(try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": "3"], token: staff.token).status == .forbidden)
            let long = String(repeating: "9", count: 21)
            #expect(
                try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": .string(long)], token: customer.token).status
                    == .unprocessableContent)

            let here = try await app.request(
                .post, "/v1/orders/\(id)/arrival", json: ["bay": " 3 ", "vehicle": "Blue Corolla"], token: customer.token)
            #expect(here.status == .ok, "\(here.text)")
            #expect(here.json["arrival"]["bay"].string == "3")
            #expect(here.json["arrival"]["vehicle"].string == "Blue Corolla")
            let first = try #require(here.json["arrival"]["at"].string)

            let board = try await app.request(.get, "/v1/stores/\(store)/orders", token: staff.token)
            let row = try #require(board.json["items"].array.first { $0["id"].string == id })
            #expect(row["arrival"]["bay"].string == "3")

            let moved = try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": "5", "note": "boot open"], token: customer.token)
            #expect(moved.json["arrival"]["bay"].string == "5")
            #expect(moved.json["arrival"]["at"].string == first)
            #expect(moved.json["arrival"]["vehicle"].string == nil)
            let events = try await sql(
                "SELECT data -> 'order' -> 'arrival' ->> 'bay', data ->> 'repeated' FROM events WHERE type = 'order.customer_arrived' ORDER BY occurred_at, sequence",
                on: app.database)
            #expect(events == [["3", "false"], ["5", "true"]])
            #expect(moved.json["history"].array.filter { $0["kind"].string == "customer_arrived" }.count == 2)
        }
    }

    @Test("the wait from arrival to hand-over is in /metrics as a histogram per store; a collected order is not ready any more")
    func waitMeasured() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = try #require(order["id"].string)
            _ = try await app.transition(id, to: "packaged", by: staff)
            _ = try await app.request(.post, "/v1/orders/\(id)/arrival", json: ["bay": "1"], token: customer.token)
            _ = try await sql("UPDATE orders SET arrived_at = now() - interval '95 seconds' WHERE id = $1", [id], on: app.database)
            #expect(try await app.pay(order, by: staff).status == .created)
            let token = try #require(try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["pickupToken"].string)
            #expect(try await app.scan(token, by: staff).status == .ok)

            let metrics = try await app.request(.get, "/metrics").text
            let bucket = metrics.split(separator: "\n").first {
                $0.hasPrefix("fulfilment_arrival_wait_seconds_bucket") && $0.contains("store=\"\(store)\"") && $0.contains("le=\"120.0\"")
            }
            #expect(bucket?.hasSuffix(" 1") == true, "\(metrics.split(separator: "\n").filter { $0.contains("arrival_wait") })")
            let below = metrics.split(separator: "\n").first {
                $0.hasPrefix("fulfilment_arrival_wait_seconds_bucket") && $0.contains("store=\"\(store)\"") && $0.contains("le=\"60.0\"")
            }
            #expect(below?.hasSuffix(" 0") == true)

            let late = try await app.request(.post, "/v1/orders/\(id)/arrival", json: [:], token: customer.token)
            #expect(late.errorCode == "not_ready")
            #expect(late.json["error"]["details"]["status"].string == "completed")
        }
    }
}
