import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A manager's stock edits never undo what happened in between (issue 10, item 10).
@Suite("Stock: adjustments by delta with a reason, conditional counts, the ledger")
struct StockLedgerTests {
    @Test("a delivery and breakage are deltas with reasons, kept in the ledger with who did it")
    func adjustments() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store, onHand: 10, reserved: 4)
            let manager = try await app.signIn(role: .manager, store: store.id)
            let path = "/v1/stores/\(store.id)/stock/\(product)"
            let received = try await app.request(
                .post, path + "/adjustments", json: ["delta": 24, "reason": "received", "note": "Tuesday delivery"], token: manager.token)
            #expect(received.status == .created)
            #expect(received.json["movement"]["onHandAfter"].int == 34)
            #expect(received.json["stock"]["onHand"].int == 34)
            let damaged = try await app.request(.post, path + "/adjustments", json: ["delta": -2, "reason": "damaged"], token: manager.token)
            #expect(damaged.json["stock"]["available"].int == 28)
            // Never below what open orders hold, never out of bounds, never null.
            let tooMany = try await app.request(.post, path + "/adjustments", json: ["delta": -31, "reason": "count"], token: manager.token)
            #expect(tooMany.status == .conflict)
            #expect(tooMany.errorCode == "stock_below_reserved")
            let beyond = try await app.request(
                .post, path + "/adjustments", json: ["delta": 1_000_000_000, "reason": "received"], token: manager.token)
            #expect(beyond.status == .conflict)
            #expect(beyond.errorCode == "on_hand_too_large")
            for bad: JSONValue in [
                ["delta": 9_223_372_036_854_775_807, "reason": "received"], ["delta": 1, "reason": "import"],
                ["delta": 1, "reason": "stolen"], ["delta": 1, "reason": "received", "note": .null],
            ] {
                let reply = try await app.request(.post, path + "/adjustments", json: bad, token: manager.token)
                #expect(reply.status == .unprocessableContent, "\(bad): \(reply.text)")
            }
            #expect(try await app.sqlOnHand(store: store.id, product: product) == 32)
            // A count that matched changes nothing but is on the record.
            let matched = try await app.request(.post, path + "/adjustments", json: ["delta": 0, "reason": "count"], token: manager.token)
            #expect(matched.status == .created)
            #expect(matched.json["stock"]["onHand"].int == 32)
            let ledger = try await app.request(.get, path + "/movements?cursor=", token: manager.token)
            #expect(ledger.json["items"].array.map { $0["delta"].int } == [0, -2, 24])
            #expect(ledger.json["items"][0]["reason"].string == "count")
            #expect(ledger.json["items"][2]["reason"].string == "received")
            #expect(ledger.json["items"][2]["note"].string == "Tuesday delivery")
            #expect(ledger.json["items"][2]["by"].string == manager.userID)
            let page = try await app.request(.get, path + "/movements?limit=2", token: manager.token)
            let next = try #require(page.json["nextCursor"].string)
            #expect(
                try await app.request(.get, path + "/movements?limit=2&cursor=\(next)", token: manager.token)
                    .json["items"][0]["delta"].int == 24)
            let staff = try await app.signIn(role: .staff, store: store.id)
            #expect(
                try await app.request(.post, path + "/adjustments", json: ["delta": 1, "reason": "received"], token: staff.token)
                    .status == .forbidden)
        }
    }

    @Test("a count set on a figure that changed since the manager read it is 409; a collection in between is never undone")
    func conditionalCount() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let (_, order, product) = try await app.placeOrder(store: store, quantity: 2)
            let path = "/v1/stores/\(store)/stock/\(product)"
            // The manager reads 10 on hand...
            let seen = try await app.request(.get, "/v1/stores/\(store)/stock", token: manager.token)
            let onHand = try #require(seen.json["items"][0]["onHand"].int)
            #expect(onHand == 10)
            // ...meanwhile the order is collected, selling 2...
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status == .ok)
            // ...and the manager's "add 5" as an absolute 15 would undo the sale: refused.
            let stale = try await app.request(
                .put, path, json: ["onHand": 15, "minSupply": 0, "expectedOnHand": .int(onHand)], token: manager.token)
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == "stock_changed")
            #expect(stale.json["error"]["details"]["onHand"].int == 8)
            #expect(try await app.stock(store: store, product: product) == (8, 0))
            // Re-read and set again, or adjust by the delta: both keep the sale.
            let counted = try await app.request(
                .put, path, json: ["onHand": 13, "minSupply": 2, "expectedOnHand": 8], token: manager.token)
            #expect(counted.status == .ok)
            #expect(try await app.stock(store: store, product: product) == (13, 0))
            let ledger = try await app.request(.get, path + "/movements", token: manager.token)
            #expect(ledger.json["items"][0]["reason"].string == "count")
            #expect(ledger.json["items"][0]["delta"].int == 5)
        }
    }

    @Test("two people adjusting the same product at once both count")
    func concurrentAdjustments() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Rice", at: store, onHand: 100)
            let manager = try await app.signIn(role: .manager, store: store.id)
            let path = "/v1/stores/\(store.id)/stock/\(product)/adjustments"
            let replies = try await app.race(8) { index, racer in
                try await racer.request(
                    .post, path, json: ["delta": .int(index.isMultiple(of: 2) ? 5 : -3), "reason": "correction"], token: manager.token)
            }
            #expect(replies.allSatisfy { $0.status == .created })
            #expect(try await app.sqlOnHand(store: store.id, product: product) == 100 + 4 * 5 - 4 * 3)
            let afters = try await sql(
                "SELECT on_hand_after FROM stock_movements WHERE product_id = $1 ORDER BY id", [product], on: app.database)
            // Each entry saw the one before it: the ledger reads as a running total.
            var running = 100
            let deltas = try await sql("SELECT delta FROM stock_movements WHERE product_id = $1 ORDER BY id", [product], on: app.database)
            for (delta, after) in zip(deltas, afters) {
                running += Int(delta[0]!)!
                #expect(Int(after[0]!)! == running)
            }
        }
    }
}
