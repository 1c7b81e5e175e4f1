import Foundation
import Testing

@testable import Fulfilment

@Suite("Payments: desk payments and the provider's webhook")
struct PaymentTests {
    @Test("a desk payment must equal the amount due, and happens once")
    func deskPayment() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let otherStaff = try await app.signIn(role: .staff, store: try await app.createStore())
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 2, price: 1250)
            let id = order["id"].string!
            let short = try await app.request(
                .post, "/v1/orders/\(id)/payments", json: ["method": "card", "amount": ["amount": 2000, "currency": "JMD"]], token: staff.token)
            #expect(short.status == .unprocessableContent)
            #expect(short.errorCode == "amount_mismatch")
            #expect(short.json["error"]["details"]["amountDue"] == ["amount": 2500, "currency": "JMD"])
            #expect(try await app.pay(order, by: otherStaff).status == .notFound)
            #expect(try await app.pay(order, by: customer).status == .forbidden)
            let paid = try await app.pay(order, by: staff, method: "card")
            #expect(paid.status == .created)
            #expect(paid.json["method"].string == "card")
            #expect(try await app.pay(order, by: staff).errorCode == "already_paid")
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "paid")
            #expect(seen.json["amountDue"]["amount"].int == 0)
        }
    }

    func event(_ id: String, order: String, amount: Int) -> String {
        #"{"id": "\#(id)", "type": "payment.succeeded", "orderId": "\#(order)", "amount": {"amount": \#(amount), "currency": "JMD"}}"#
    }

    @Test("the webhook: bad signature and stale timestamp are refused; a replay changes nothing")
    func webhook() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, order, _) = try await app.placeOrder(store: store, price: 3000, method: "prepaid")
            let id = order["id"].string!
            let body = event("evt_1", order: id, amount: 3000)

            let badSignature = try await app.webhook(body, signature: "v1=" + String(repeating: "ab", count: 32))
            #expect(badSignature.status == .unauthorized)
            #expect(badSignature.errorCode == "invalid_signature")
            // Signed for another body: the signature covers the raw bytes.
            let other = WebhookSignature.signature(
                secret: TestApp.webhookSecret, timestamp: String(Int(Date().timeIntervalSince1970)), body: Array((body + " ").utf8))
            #expect(try await app.webhook(body, signature: other).errorCode == "invalid_signature")
            let stale = try await app.webhook(body, timestamp: Int(Date().timeIntervalSince1970) - 301)
            #expect(stale.status == .unauthorized)
            #expect(stale.errorCode == "stale_timestamp")
            #expect(try await app.request(.post, "/v1/payments/webhook", rawBody: body).status == .unauthorized)
            #expect(try await sql("SELECT payment_status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "unpaid")

            let accepted = try await app.webhook(body)
            #expect(accepted.status == .ok)
            #expect(accepted.json == ["eventId": "evt_1", "outcome": "paid", "duplicate": false])
            let replay = try await app.webhook(body)
            #expect(replay.status == .ok)
            #expect(replay.json == ["eventId": "evt_1", "outcome": "paid", "duplicate": true])
            #expect(try await sql("SELECT count(*) FROM payments", on: app.database)[0][0] == "1")
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "paid")

            // A second event for the same order settles nothing more; a wrong amount is recorded, not applied.
            #expect(try await app.webhook(event("evt_2", order: id, amount: 3000)).json["outcome"].string == "already_paid")
            let (_, order2, _) = try await app.placeOrder(store: store, price: 3000, method: "prepaid")
            #expect(try await app.webhook(event("evt_3", order: order2["id"].string!, amount: 1)).json["outcome"].string == "amount_mismatch")
            #expect(try await sql("SELECT count(*) FROM payments", on: app.database)[0][0] == "1")
        }
    }
}
