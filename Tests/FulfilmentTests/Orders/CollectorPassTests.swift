import Foundation
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 48: someone else collects. Marcia cannot make it to the store, so she names her
/// brother Devon on her order and sends him the pass's QR. The desk accepts his pass as it
/// accepts her receipt, says who is collecting for whom, and records that Devon's pass collected
/// it; a pass she revoked, one of another order, or one past its expiry is refused with why.
@Suite("Collector passes: someone else collects")
struct CollectorPassServiceTests {
    /// A paid, packaged order at `store`, ready to collect, with its customer.
    func readyOrder(_ app: TestApp, store: String, staff: Session) async throws -> (Session, JSONValue) {
        let (customer, order, _) = try await app.placeOrder(store: store)
        #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
        #expect(try await app.pay(order, by: staff).status == .created)
        return (customer, order)
    }

    @Test("a named collector's pass is handed the order at the desk, once; the receipt then says already collected")
    func devonCollects() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (marcia, order) = try await readyOrder(app, store: store, staff: staff)
            let id = try #require(order["id"].string)
            let path = "/v1/orders/\(id)/collectors"

            let created = try await app.request(.post, path, json: ["name": "  Devon Brown "], token: marcia.token)
            #expect(created.status == .created, "\(created.text)")
            let pass = created.json
            #expect(pass["name"].string == "Devon Brown" && pass["status"].string == "active")
            let token = try #require(pass["token"].string)
            // A pickup token of its own, naming the order and the pass, verified with the
            // published keys as a receipt is, and expiring with the receipt.
            let parsed = try PickupToken(text: token)
            #expect(parsed.isCollectorPass && parsed.claims.orderID.uuidString.lowercased() == id)
            #expect(parsed.claims.collectorPassID?.uuidString.lowercased() == pass["id"].string)
            #expect(token != order["pickupToken"].string)
            #expect(pass["expiresAt"] == order["tokenExpiresAt"])

            // Its QR, for Marcia only; staff see who was named but never the token.
            let png = try await app.request(.get, try #require(pass["qrPng"].string), token: marcia.token)
            #expect(png.status == .ok && png.headers[.contentType] == "image/png")
            #expect(try await app.request(.get, try #require(pass["qrPng"].string), token: staff.token).status == .forbidden)
            let seenByStaff = try await app.request(.get, path, token: staff.token)
            #expect(seenByStaff.json["items"][0]["name"].string == "Devon Brown")
            #expect(seenByStaff.json["items"][0]["token"] == .null && !seenByStaff.text.contains(token))
            #expect(seenByStaff.json["nextCursor"] == .null)

            // At the desk: the preview says who is collecting; the hand-over records the pass.
            let preview = try await app.scan(token, by: staff, preview: true)
            #expect(preview.status == .ok, "\(preview.text)")
            #expect(preview.json["collector"]["name"].string == "Devon Brown")
            #expect(preview.json["customerName"] == order["customerName"])
            let collected = try await app.scan(token, by: staff)
            #expect(collected.status == .ok, "\(collected.text)")
            #expect(collected.json["status"].string == "completed")
            #expect(collected.json["collector"]["passId"] == pass["id"])
            let recorded = try await sql("SELECT collector_pass_id::text FROM orders WHERE id = $1", [id], on: app.database)
            #expect(recorded[0][0] == pass["id"].string)
            let listed = try await app.request(.get, path, token: marcia.token).json["items"][0]
            #expect(listed["status"].string == "used" && listed["usedAt"] != .null)

            // Once: the pass again, and Marcia's own receipt, are already collected.
            #expect(try await app.scan(token, by: staff).errorCode == "already_collected")
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).errorCode == "already_collected")
            // A used pass cannot be revoked, and a collected order takes no new pass.
            let revokeUsed = try await app.request(.delete, "\(path)/\(pass["id"].string!)", token: marcia.token)
            #expect(revokeUsed.errorCode == "pass_used")
            #expect(try await app.request(.post, path, json: ["name": "Kemar"], token: marcia.token).errorCode == "order_closed")
        }
    }

    @Test("a revoked pass is refused at the desk with the collector's name; the receipt still works; passes are the customer's to make")
    func revokedAndRefused() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (marcia, order) = try await readyOrder(app, store: store, staff: staff)
            let id = try #require(order["id"].string)
            let path = "/v1/orders/\(id)/collectors"
            let pass = try await app.request(.post, path, json: ["name": "Devon"], token: marcia.token).json
            let token = try #require(pass["token"].string)

            // Nobody else names a collector on Marcia's order; bad names are refused, nothing made.
            let stranger = try await app.registerCustomer()
            #expect(try await app.request(.post, path, json: ["name": "Thief"], token: stranger.token).status == .notFound)
            #expect(try await app.request(.post, path, json: ["name": "Staff"], token: staff.token).status == .forbidden)
            #expect(try await app.request(.get, path, token: stranger.token).status == .notFound)
            for name: JSONValue in ["   ", .string(String(repeating: "x", count: 81)), "Dev\u{7}on"] {
                let refused = try await app.request(.post, path, json: ["name": name], token: marcia.token)
                #expect(refused.status == .unprocessableContent && refused.json["error"]["details"]["field"].string == "name", "\(refused.text)")
            }
            #expect(try await app.request(.get, path, token: marcia.token).json["items"].array.count == 1)

            let revoked = try await app.request(.delete, "\(path)/\(pass["id"].string!)", token: marcia.token)
            #expect(revoked.status == .ok && revoked.json["status"].string == "revoked")
            // Again: the pass as it is.
            #expect(
                try await app.request(.delete, "\(path)/\(pass["id"].string!)", token: marcia.token).json["revokedAt"] == revoked.json["revokedAt"])
            #expect(try await app.request(.delete, "\(path)/\(UUID().uuidString)", token: marcia.token).status == .notFound)

            let refused = try await app.scan(token, by: staff)
            #expect(refused.status == .conflict && refused.errorCode == "pass_revoked", "\(refused.text)")
            #expect(refused.json["error"]["details"]["collector"].string == "Devon")
            #expect(try await app.scan(token, by: staff, preview: true).errorCode == "pass_revoked")
            // Even if the service's check were skipped, the statement itself refuses it, under its locks.
            let direct = try await sql(
                "SELECT collect_order($1, $2, $3, $4, NULL)::text", [id, store, staff.userID, token], on: app.database)
            #expect(direct[0][0] == "false")
            // Marcia's own receipt still collects.
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status == .ok)
        }
    }

    @Test("at most five live passes an order; a revoked one makes room; the limit holds when seven are asked at once, each on its own connection")
    func limitUnderRace() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (marcia, order, _) = try await app.placeOrder(store: store)
            let path = "/v1/orders/\(order["id"].string!)/collectors"
            let racers = (1...7).map { SeparateConnections.Request(path: path, json: ["name": .string("Collector \($0)")], token: marcia.token) }
            let replies = try await SeparateConnections.race(racers, port: try app.livePort)
            #expect(replies.filter { $0.status == .created }.count == 5, "\(replies.map(\.status))")
            #expect(replies.filter { $0.json["error"]["code"].string == "too_many_collectors" }.count == 2)
            let first = try #require(try await app.request(.get, path, token: marcia.token).json["items"][0]["id"].string)
            #expect(try await app.request(.delete, "\(path)/\(first)", token: marcia.token).status == .ok)
            #expect(try await app.request(.post, path, json: ["name": "Another"], token: marcia.token).status == .created)
        }
    }

    @Test("a pass for another order is not this order's; a pass past its expiry is refused as expired")
    func wrongOrderAndExpired() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (marcia, order) = try await readyOrder(app, store: store, staff: staff)
            let pass = try await app.request(.post, "/v1/orders/\(order["id"].string!)/collectors", json: ["name": "Devon"], token: marcia.token).json
            // The database forgets the pass (as if it never existed): its genuine token names nothing.
            try await sql("UPDATE orders SET collector_pass_id = NULL WHERE id = $1", [order["id"].string!], on: app.database)
            try await sql("DELETE FROM collector_passes WHERE id = $1", [pass["id"].string!], on: app.database)
            let unknown = try await app.scan(pass["token"].string!, by: staff)
            #expect(unknown.errorCode == "invalid_token" && unknown.json["error"]["details"]["reason"].string == "unknown_pass")
            // A pass signed to expire a minute ago (as the receipt's own deadline passed) is 410.
            let signer = app.keyring.signer
            let expired = try signer.sign(
                PickupToken.Claims(
                    orderID: UUID(uuidString: order["id"].string!)!, storeNumber: 1, expiresAt: Date().addingTimeInterval(-60),
                    collectorPassID: UUID()))
            #expect(try await app.scan(expired.text, by: staff).errorCode == "token_expired")
        }
    }
}
