import Foundation
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The pickup token is the customer's proof of being there: staff never read it, and a lost
/// receipt is issued again at the desk as an audited action (issue 10, item 4).
@Suite("Receipts: the customer's alone, re-issued at the desk on the record")
struct ReceiptTests {
    @Test("staff see the order by number and name, never its token or receipt")
    func staffNeverSeeTheToken() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            #expect(order["pickupToken"].string?.hasPrefix("FC1:") == true)

            for member in [staff, manager] {
                let seen = try await app.request(.get, "/v1/orders/\(id)", token: member.token)
                #expect(seen.status == .ok)
                #expect(seen.json["number"] == order["number"])
                #expect(seen.json["customerName"].string == "Test Customer")
                #expect(!seen.json.has("pickupToken"))
                #expect(!seen.json.has("receiptUrl"))
                #expect(!seen.text.contains(order["pickupToken"].string!))
                #expect(try await app.request(.get, "/v1/orders/\(id)/receipt.png", token: member.token).status == .forbidden)
                #expect(try await app.request(.get, "/v1/orders/\(id)/receipt.svg", token: member.token).status == .forbidden)
                let moved = try await app.transition(id, to: member.userID == staff.userID ? "packaged" : "delivering", by: member)
                #expect(moved.status == .ok)
                #expect(!moved.text.contains(order["pickupToken"].string!))
            }
            let board = try await app.request(.get, "/v1/stores/\(store)/orders", token: staff.token)
            #expect(board.json["items"][0]["receiptUrl"] == .null)
            #expect(!board.text.contains("FC1:"))
            // The customer still has everything.
            let own = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(own.json["pickupToken"] == order["pickupToken"])
            #expect(try await app.request(.get, "/v1/orders/\(id)/receipt.png", token: customer.token).status == .ok)
            // Another customer learns nothing.
            let stranger = try await app.registerCustomer()
            #expect(try await app.request(.get, "/v1/orders/\(id)/receipt.png", token: stranger.token).status == .notFound)
        }
    }

    @Test("a receipt re-issued at the desk works, the old one is superseded, and who, when and why is kept")
    func reissue() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let otherStaff = try await app.signIn(role: .staff, store: try await app.createStore())
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            let old = order["pickupToken"].string!
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)

            let noReason = try await app.request(.post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "  "], token: staff.token)
            #expect(noReason.status == .unprocessableContent)
            #expect(
                try await app.request(
                    .post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "lost"], token: otherStaff.token
                ).status == .notFound)
            #expect(
                try await app.request(
                    .post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "lost"], token: customer.token
                ).status == .forbidden)

            let reissued = try await app.request(
                .post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "customer's phone is flat"], token: staff.token)
            #expect(reissued.status == .created)
            let fresh = try #require(reissued.json["pickupToken"].string)
            #expect(fresh != old)
            #expect(reissued.json["orderNumber"] == order["number"])
            #expect(reissued.json["reissuedBy"].string == staff.userID)
            let png = try #require(Data(base64Encoded: reissued.json["receiptPng"].string ?? ""))
            #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

            let stale = try await app.scan(old, by: staff, preview: true)
            #expect(stale.status == .unauthorized)
            #expect(stale.json["error"]["details"]["reason"].string == "superseded")
            let audit = try await sql(
                "SELECT reissued_by, reason FROM receipt_reissues WHERE order_id = $1", [id], on: app.database)
            #expect(audit == [[staff.userID, "customer's phone is flat"]])
            // The customer's app shows the new receipt; the new token hands the order over, once.
            #expect(try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["pickupToken"].string == fresh)
            #expect(try await app.scan(fresh, by: staff).status == .ok)
            let after = try await app.request(
                .post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "again"], token: staff.token)
            #expect(after.errorCode == "already_collected")
        }
    }
}
