import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Helpers for the webhook tests: each reads as a step of the story.
extension TestApp {
    /// Creates an endpoint through the API; returns its JSON (with the secret).
    func createWebhook(
        _ session: Session, url: String, eventTypes: [String] = ["order.placed"], storeID: String? = nil
    ) async throws -> JSONValue {
        var body: [String: JSONValue] = ["url": .string(url), "eventTypes": .array(eventTypes.map { .string($0) })]
        if let storeID { body["storeId"] = .string(storeID) }
        let reply = try await request(.post, "/v1/webhooks", json: .object(body), token: session.token)
        guard reply.status == .created, reply.json["secret"].string != nil else {
            throw TestSetupError("create webhook: \(reply.status) \(reply.text)")
        }
        return reply.json
    }

    /// The endpoint's deliveries through the API, newest first.
    func deliveries(of webhook: JSONValue, by session: Session) async throws -> [JSONValue] {
        let reply = try await request(.get, "/v1/webhooks/\(webhook["id"].string!)/deliveries", token: session.token)
        guard reply.status == .ok else { throw TestSetupError("deliveries: \(reply.status) \(reply.text)") }
        return reply.json["items"].array
    }

    /// Waits (bounded) until the endpoint's only delivery has `status`; returns it.
    func waitForDelivery(of webhook: JSONValue, by session: Session, status: String, seconds: Int = 30) async throws -> JSONValue {
        var last: [JSONValue] = []
        for _ in 0..<(seconds * 10) {
            last = try await deliveries(of: webhook, by: session)
            if last.count == 1, last[0]["status"].string == status { return last[0] }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSetupError("no single \(status) delivery within \(seconds) s: \(last)")
    }

    /// Returns once the dispatcher has come round on its own twice after this call: the witness a
    /// test that something was *not* sent waits for, instead of a sleep it hopes is long enough.
    /// Another store's endpoint, made now at `receiver`'s `/flaky/2` (so once per receiver),
    /// refuses twice before it accepts: its delivery's second and third attempts are each claimed
    /// by a poll, a retry pause after the attempt before. A claim takes every delivery due by
    /// then, earliest first, and counts it in `attempts` before sending; so whatever came due
    /// within two retry pauses of this call (the schedule's first two) has been claimed, and
    /// counted, by the time this returns.
    func waitForTwoDispatcherRounds(at receiver: WebhookReceiver) async throws {
        let store = try await createStore()
        let manager = try await signIn(role: .manager, store: store)
        let marker = try await createWebhook(manager, url: receiver.url("/flaky/2"))
        _ = try await placeOrder(store: store)
        let delivery = try await waitForDelivery(of: marker, by: manager, status: "succeeded")
        guard delivery["attempts"].int == 3 else { throw TestSetupError("the marker delivery was not sent three times: \(delivery)") }
    }

    /// The `order.placed` event of an order: its id and `event_json`, the body every delivery sends.
    /// Read once it is numbered (just after its commit, by the bus), as a delivery sends it: read
    /// before, its `sequence` is still null.
    func placedEvent(of order: JSONValue) async throws -> (id: String, json: String) {
        for _ in 0..<200 {
            let rows = try await sql(
                "SELECT e.id, event_json(e) FROM events e WHERE e.order_id = $1 AND e.type = 'order.placed' AND e.sequence IS NOT NULL",
                [order["id"].string!], on: database)
            if let row = rows.first { return (row[0]!, row[1]!) }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("the order.placed event of order \(order["id"].string!) was not numbered within 10 s")
    }
}

extension AppConfiguration {
    /// A dispatcher that looks often and retries after `schedule` (tenths of seconds), so a test
    /// sees behaviour quickly; no timing is asserted. Private addresses are allowed, for the
    /// tests' receiver on 127.0.0.1 (`allowPrivate: false` for the tests of that rule).
    mutating func quickWebhooks(
        schedule: [Duration] = [.milliseconds(200), .milliseconds(200), .milliseconds(200)], allowPrivate: Bool = true
    ) {
        webhookDispatch.pollInterval = .milliseconds(100)
        webhookDispatch.retrySchedule = schedule
        webhookDispatch.allowPrivate = allowPrivate
    }
}
