import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

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
            let other = PaymentWebhookSignature.signature(
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

    /// Picks `picked` of the order's one line on a new pick list, closes it short, completes the list.
    func packShort(_ app: TestApp, store: String, order: JSONValue, picked: Int, by staff: Session) async throws {
        let list = try await app.request(
            .post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [order["id"]]], token: staff.token)
        let id = try #require(list.json["id"].string)
        let pick = try await app.request(
            .post, "/v1/pick-lists/\(id)/picks",
            json: ["orderId": order["id"], "productId": order["lines"][0]["productId"], "quantity": .int(picked), "short": true],
            token: staff.token)
        #expect(pick.status == .ok, "\(pick.text)")
        #expect(try await app.request(.post, "/v1/pick-lists/\(id)/complete", token: staff.token).json["packaged"].array.count == 1)
    }

    @Test("a prepaid order packed short: the provider's full charge is accepted and the difference is refund_due")
    func prepaidPackedShortThenPaid() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 3, price: 1000, method: "prepaid")
            let id = order["id"].string!
            try await packShort(app, store: store, order: order, picked: 2, by: staff)
            let packed = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(packed.json["total"]["amount"].int == 2000)

            // The provider charged what was ordered at checkout.
            let paid = try await app.webhook(event("evt_short", order: id, amount: 3000))
            #expect(paid.json["outcome"].string == "paid_refund_due")
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "refund_due")
            #expect(seen.json["refundDue"] == ["amount": 1000, "currency": "JMD"])
            #expect(seen.json["amountDue"]["amount"].int == 0)
            // Paid is paid: the desk hands it over without asking for money.
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status == .ok)
        }
    }

    @Test("a prepaid order paid in full and then packed short or cancelled owes the difference back")
    func prepaidPaidThenShortOrCancelled() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 4, price: 500, method: "prepaid")
            let id = order["id"].string!
            #expect(try await app.webhook(event("evt_full", order: id, amount: 2000)).json["outcome"].string == "paid")
            try await packShort(app, store: store, order: order, picked: 1, by: staff)
            var seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "refund_due")
            #expect(seen.json["refundDue"]["amount"].int == 1500)

            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["refundDue"]["amount"].int == 2000)

            // A payment the provider took for an order cancelled before it arrived is owed back in full.
            let (_, order2, _) = try await app.placeOrder(store: store, quantity: 1, price: 700, method: "prepaid")
            let id2 = order2["id"].string!
            #expect(try await app.transition(id2, to: "cancelled", by: staff).status == .ok)
            #expect(try await app.webhook(event("evt_late", order: id2, amount: 700)).json["outcome"].string == "paid_refund_due")
            let row = try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id2], on: app.database)
            #expect(row[0] == ["refund_due", "700"])
        }
    }

    @Test("the desk never takes money for a prepaid order")
    func deskRefusesPrepaid() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store, price: 1200, method: "prepaid")
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            let desk = try await app.pay(order, by: staff)
            #expect(desk.status == .conflict)
            #expect(desk.errorCode == "prepaid_order")
            #expect(try await sql("SELECT count(*) FROM payments", on: app.database)[0][0] == "0")
            // Until the provider's payment arrives the desk cannot hand it over either.
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).status.code == 402)
        }
    }
}
