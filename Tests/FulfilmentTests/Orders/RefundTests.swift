import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 13: money owed back. A paid order cancelled for any reason (or packed short) is
/// `refund_due`; a manager records the refund paid at the desk, or the provider's signed
/// `refund.succeeded` event does. Both end in `refunded`.
@Suite("Refunds: recorded by a manager or by the provider's webhook")
struct RefundTests {
    func paid(_ app: TestApp, store: String, quantity: Int = 1, price: Int = 1500, event: String) async throws -> (Session, String) {
        let (customer, order, _) = try await app.placeOrder(store: store, quantity: quantity, price: price, method: "prepaid")
        let id = order["id"].string!
        let body =
            #"{"id": "\#(event)", "type": "payment.succeeded", "orderId": "\#(id)", "amount": {"amount": \#(quantity * price), "currency": "JMD"}}"#
        #expect(try await app.webhook(body).json["outcome"].string == "paid")
        return (customer, id)
    }

    func refundEvent(_ id: String, order: String, amount: Int) -> String {
        #"{"id": "\#(id)", "type": "refund.succeeded", "orderId": "\#(order)", "amount": {"amount": \#(amount), "currency": "JMD"}}"#
    }

    @Test("a manager of the order's store records the refund owed on a cancelled order, once, for exactly what is owed")
    func managerRecordsRefund() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            let (customer, id) = try await paid(app, store: store, event: "evt_r1")
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            var seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "refund_due")
            #expect(seen.json["refundDue"] == ["amount": 1500, "currency": "JMD"])

            let path = "/v1/orders/\(id)/refunds"
            let full: JSONValue = ["amount": ["amount": 1500, "currency": "JMD"], "note": "cash back at the desk"]
            #expect(try await app.request(.post, path, json: full, token: staff.token).status == .forbidden)
            #expect(try await app.request(.post, path, json: full, token: customer.token).status == .forbidden)
            #expect(try await app.request(.post, path, json: full, token: otherManager.token).status == .notFound)
            let short = try await app.request(.post, path, json: ["amount": ["amount": 1000, "currency": "JMD"]], token: manager.token)
            #expect(short.status == .unprocessableContent)
            #expect(short.errorCode == "amount_mismatch")
            #expect(short.json["error"]["details"]["refundDue"] == ["amount": 1500, "currency": "JMD"])
            let zero = try await app.request(.post, path, json: ["amount": ["amount": 0, "currency": "JMD"]], token: manager.token)
            #expect(zero.status == .unprocessableContent)

            let refunded = try await app.request(.post, path, json: full, token: manager.token)
            #expect(refunded.status == .created, "\(refunded.text)")
            #expect(refunded.json["method"].string == "desk")
            #expect(refunded.json["recordedBy"].string == manager.userID)
            #expect(refunded.json["amount"] == ["amount": 1500, "currency": "JMD"])
            seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "refunded")
            #expect(!seen.json.has("refundDue"))
            let audit = try await sql("SELECT recorded_by, note, amount FROM refunds WHERE order_id = $1", [id], on: app.database)
            #expect(audit == [[manager.userID, "cash back at the desk", "1500"]])

            let twice = try await app.request(.post, path, json: full, token: manager.token)
            #expect(twice.status == .conflict)
            #expect(twice.errorCode == "no_refund_due")
            // An unpaid order owes nothing either.
            let (_, unpaid, _) = try await app.placeOrder(store: store)
            #expect(
                try await app.request(.post, "/v1/orders/\(unpaid["id"].string!)/refunds", json: full, token: manager.token).errorCode
                    == "no_refund_due")
        }
    }

    @Test("two managers recording the same refund at once: one refund, one 409")
    func racingManagers() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let managers = [try await app.signIn(role: .manager, store: store), try await app.signIn(role: .manager, store: store)]
            for round in 0..<3 {
                let (_, id) = try await paid(app, store: store, event: "evt_race_\(round)")
                #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
                let statuses = try await app.race(2) { index, racer in
                    try await racer.request(
                        .post, "/v1/orders/\(id)/refunds", json: ["amount": ["amount": 1500, "currency": "JMD"]],
                        token: managers[index].token
                    ).status.code
                }
                #expect(statuses.sorted() == [201, 409])
                #expect(try await sql("SELECT count(*) FROM refunds WHERE order_id = $1", [id], on: app.database)[0][0] == "1")
            }
        }
    }

    @Test("packed short, refunded, then cancelled: what is still owed is owed again, and the provider's refund settles it")
    func partThenRest() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let (_, order, _) = try await app.placeOrder(store: store, quantity: 3, price: 1000, method: "prepaid")
            let id = order["id"].string!
            #expect(
                try await app.webhook(
                    #"{"id": "evt_p1", "type": "payment.succeeded", "orderId": "\#(id)", "amount": {"amount": 3000, "currency": "JMD"}}"#
                ).json["outcome"].string == "paid")
            try await PaymentTests().packShort(app, store: store, order: order, picked: 1, by: staff)
            #expect(
                try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id], on: app.database)[0]
                    == ["refund_due", "2000"])
            #expect(
                try await app.request(
                    .post, "/v1/orders/\(id)/refunds", json: ["amount": ["amount": 2000, "currency": "JMD"]], token: manager.token
                ).status
                    == .created)
            #expect(
                try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id], on: app.database)[0]
                    == ["refunded", "0"])
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            #expect(
                try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id], on: app.database)[0]
                    == ["refund_due", "1000"])
            #expect(try await app.webhook(refundEvent("evt_p2", order: id, amount: 1000)).json["outcome"].string == "refunded")
            #expect(
                try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id], on: app.database)[0]
                    == ["refunded", "0"])
        }
    }

    @Test("the provider's refund.succeeded: forged or stale is refused, a wrong amount is not applied, a replay changes nothing")
    func providerRefund() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, id) = try await paid(app, store: store, event: "evt_w1")
            // Nobody came for it: the expiry sweep cancels it, and the payment is owed back.
            let logger = Logger(label: "refund-test")
            let swept = try await app.withDatabase {
                try await OrderExpiry(database: $0).sweep(now: Date().addingTimeInterval(8 * 86_400), logger: logger)
            }
            #expect(swept.map(\.description) == [id])
            #expect(try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["paymentStatus"].string == "refund_due")

            let body = refundEvent("evt_refund_1", order: id, amount: 1500)
            let forged = try await app.webhook(body, signature: "v1=" + String(repeating: "0f", count: 32))
            #expect(forged.status == .unauthorized)
            #expect(forged.errorCode == "invalid_signature")
            let signedByOthers = PaymentWebhookSignature.signature(
                secret: "not-the-secret", timestamp: String(Int(Date().timeIntervalSince1970)), body: Array(body.utf8))
            #expect(try await app.webhook(body, signature: signedByOthers).errorCode == "invalid_signature")
            let stale = try await app.webhook(body, timestamp: Int(Date().timeIntervalSince1970) - 301)
            #expect(stale.errorCode == "stale_timestamp")
            #expect(try await sql("SELECT count(*) FROM refunds", on: app.database)[0][0] == "0")

            let wrong = try await app.webhook(refundEvent("evt_refund_0", order: id, amount: 1499))
            #expect(wrong.json["outcome"].string == "amount_mismatch")
            #expect(try await sql("SELECT payment_status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "refund_due")

            let accepted = try await app.webhook(body)
            #expect(accepted.json == ["eventId": "evt_refund_1", "outcome": "refunded", "duplicate": false])
            let replay = try await app.webhook(body)
            #expect(replay.json == ["eventId": "evt_refund_1", "outcome": "refunded", "duplicate": true])
            #expect(
                try await sql("SELECT method, amount, provider_event_id FROM refunds", on: app.database)
                    == [["provider", "1500", "evt_refund_1"]])
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["paymentStatus"].string == "refunded")
            // A second refund event (a new id) finds nothing owed.
            #expect(try await app.webhook(refundEvent("evt_refund_2", order: id, amount: 1500)).json["outcome"].string == "no_refund_due")
            #expect(try await sql("SELECT count(*) FROM refunds", on: app.database)[0][0] == "1")
        }
    }
}
