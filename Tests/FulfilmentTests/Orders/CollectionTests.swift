import Foundation
import HTTPTypes
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Collection by QR scan")
struct CollectionTests {
    /// A paid, packaged order at `store`, ready to collect.
    func readyOrder(_ app: TestApp, store: String, staff: Session) async throws -> JSONValue {
        let (_, order, _) = try await app.placeOrder(store: store)
        #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
        #expect(try await app.pay(order, by: staff).status == .created)
        return order
    }

    @Test(
        "a preview is one statement to PostgreSQL (caller and order), a collection two (caller and order, then hand over and read back), a refused one one; each confirmed committed"
    )
    func statementBudget() async throws {
        let logs = LogCapture()
        try await withApp(logHandler: logs) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let order = try await readyOrder(app, store: store, staff: staff)
            let token = order["pickupToken"].string!
            #expect(try await app.scan(token, by: staff, preview: true).status == .ok)
            #expect(try await app.scan(token, by: staff).status == .ok)
            #expect(try await app.scan(token, by: staff).errorCode == "already_collected")
            #expect(try await app.scan(token, by: staff, preview: true).errorCode == "already_collected")
            // Each lone statement is followed by the one that confirms its commit (issue 42).
            #expect(logs.requests(.post, "/v1/collections/preview").map(\.statements) == [2, 2])
            #expect(logs.requests(.post, "/v1/collections").map(\.statements) == [4, 2])
        }
    }

    @Test("a scan sent again with its Idempotency-Key (its answer lost) is answered as the first was; another key, or none, is already_collected")
    func keyedScanAgain() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let other = try await app.signIn(role: .staff, store: store)
            let order = try await readyOrder(app, store: store, staff: staff)
            let token = try #require(order["pickupToken"].string)
            let product = try #require(order["lines"][0]["productId"].string)
            func scan(_ key: String?, by desk: Session) async throws -> TestReply {
                var headers: HTTPFields = [:]
                if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                return try await app.request(.post, "/v1/collections", json: ["token": .string(token)], token: desk.token, headers: headers)
            }
            let first = try await scan("scan-1", by: staff)
            #expect(first.status == .ok && first.json["status"].string == "completed")
            let again = try await scan("scan-1", by: staff)
            #expect(again.status == .ok && again.json["id"] == first.json["id"] && again.json["collectedAt"] == first.json["collectedAt"])
            #expect(try await app.stock(store: store, product: product) == (9, 0))  // handed over once
            #expect(try await scan("scan-2", by: staff).errorCode == "already_collected")
            #expect(try await scan(nil, by: staff).errorCode == "already_collected")
            #expect(try await scan("scan-1", by: other).errorCode == "already_collected")
            let events = try await sql(
                "SELECT count(*) FROM order_events WHERE order_id = $1 AND to_status = 'completed'", [order["id"].string!], on: app.database)
            #expect(events[0][0] == "1")
        }
    }

    @Test("three desks scanning one token at once: one 200, the others 409 already_collected; stock drops once")
    func doubleScan() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let desks = [
                try await app.signIn(role: .staff, store: store), try await app.signIn(role: .staff, store: store),
                try await app.signIn(role: .staff, store: store),
            ]
            // Several rounds: the window between reading the order and completing it is short.
            for _ in 0..<5 {
                let order = try await readyOrder(app, store: store, staff: desks[0])
                let token = order["pickupToken"].string!
                let replies = try await app.race(desks.count) { index, racer in try await racer.scan(token, by: desks[index]) }
                #expect(replies.map(\.status.code).sorted() == [200, 409, 409])
                let loser = try #require(replies.first { $0.status == .conflict })
                #expect(loser.errorCode == "already_collected")
                #expect(loser.json["error"]["details"]["collectedAt"].string != nil)
                #expect(loser.json["error"]["details"]["collectedBy"].string == "Test staff")
                let product = order["lines"][0]["productId"].string!
                #expect(try await app.stock(store: store, product: product) == (9, 0))
                let used = try await sql(
                    "SELECT used_at IS NOT NULL FROM pickup_tokens WHERE order_id = $1", [order["id"].string!], on: app.database)
                #expect(used[0][0] == "t")
            }
        }
    }

    @Test("tampered, unknown-key, expired, other-store, unpaid, pending tokens each get their own code")
    func refusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let otherStore = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let otherStaff = try await app.signIn(role: .staff, store: otherStore)
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            let token = order["pickupToken"].string!

            // Pending: not ready, with the status.
            let pending = try await app.scan(token, by: staff)
            #expect(pending.status == .conflict)
            #expect(pending.errorCode == "not_ready")
            #expect(pending.json["error"]["details"]["status"].string == "pending")

            // Tampered: flip one byte of the signed part.
            var bytes = try PickupToken(text: token).bytes
            bytes[20] ^= 0x01
            let tampered = PickupToken.textPrefix + Base45.encode(bytes)
            let forged = try await app.scan(tampered, by: staff)
            #expect(forged.status == .unauthorized)
            #expect(forged.errorCode == "invalid_token")
            #expect(try await app.scan("FC1:NOT A TOKEN", by: staff).errorCode == "invalid_token")
            #expect(try await app.scan("hello", by: staff).errorCode == "invalid_token")

            // Signed by a key the service does not trust.
            let stranger = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(9))]).signer
            let claims = PickupToken.Claims(orderID: UUID(uuidString: id)!, storeNumber: try await tokenNumber(app, store), expiresAt: Date() + 3600)
            #expect(try await app.scan(try stranger.sign(claims).text, by: staff).errorCode == "invalid_token")

            // Expired: genuinely signed by the service's key, with a past expiry.
            var past = claims
            past.expiry = UInt32(Date().timeIntervalSince1970) - 60
            let expired = try await app.scan(try app.keyring.signer.sign(past).text, by: staff)
            #expect(expired.status == .gone)
            #expect(expired.errorCode == "token_expired")

            // Another store's desk.
            let elsewhere = try await app.scan(token, by: otherStaff)
            #expect(elsewhere.status == .forbidden)
            #expect(elsewhere.errorCode == "wrong_store")

            // Packaged but unpaid: 402 with the amount due.
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            let unpaid = try await app.scan(token, by: staff)
            #expect(unpaid.status.code == 402)
            #expect(unpaid.errorCode == "payment_required")
            #expect(unpaid.json["error"]["details"]["amountDue"] == order["total"])

            // A customer cannot scan.
            let customer = try await app.registerCustomer()
            #expect(try await app.scan(token, by: customer).status == .forbidden)
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "packaged")
        }
    }

    @Test("preview runs the same checks and changes nothing")
    func preview() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store, quantity: 2, price: 700)
            let token = order["pickupToken"].string!
            #expect(try await app.scan(token, by: staff, preview: true).errorCode == "not_ready")
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            let unpaid = try await app.scan(token, by: staff, preview: true)
            #expect(unpaid.errorCode == "payment_required")
            #expect(unpaid.json["error"]["details"]["amountDue"]["amount"].int == 1400)
            #expect(try await app.pay(order, by: staff).status == .created)
            let ready = try await app.scan(token, by: staff, preview: true)
            #expect(ready.status == .ok)
            #expect(ready.json["customerName"].string == "Test Customer")
            #expect(ready.json["lines"][0]["quantity"].int == 2)
            #expect(ready.json["amountDue"]["amount"].int == 0)
            #expect(ready.json["status"].string == "packaged")
            #expect(try await app.scan(token, by: staff).status == .ok)
            #expect(try await app.scan(token, by: staff, preview: true).errorCode == "already_collected")
        }
    }

    @Test("a wedge scanner's Enter (CR, LF, CRLF) and a pasted space are not part of the token")
    func scannerLineEnds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let order = try await readyOrder(app, store: store, staff: staff)
            let token = order["pickupToken"].string!
            for ending in ["\r\n", "\n", "\r", " ", "\t\r\n"] {
                let preview = try await app.scan(token + ending, by: staff, preview: true)
                #expect(preview.status == .ok, "token + \(ending.debugDescription): \(preview.text)")
            }
            let collected = try await app.scan(" " + token + "\r\n", by: staff)
            #expect(collected.status == .ok)
            #expect(collected.json["status"].string == "completed")
            // The second scan, with Enter again, is recognised as the same token.
            #expect(try await app.scan(token + "\r\n", by: staff).errorCode == "already_collected")
        }
    }

    func tokenNumber(_ app: TestApp, _ store: String) async throws -> UInt32 {
        UInt32(try await sql("SELECT token_number FROM stores WHERE id = $1", [store], on: app.database)[0][0]!)!
    }
}
