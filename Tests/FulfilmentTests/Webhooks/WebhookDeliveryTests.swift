import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The dispatcher against a real HTTP receiver: what is sent, retried, given up on, and when an
/// endpoint is turned off (issue 14).
@Suite("Webhooks: delivery, retries, redirects, failure and disabling")
struct WebhookDeliveryTests {
    @Test("a checkout reaches the endpoint as its event_json, signed as Standard Webhooks (two verifiers agree), and shows succeeded")
    func delivers() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let secret = webhook["secret"].string!
                let (_, order, _) = try await app.placeOrder(store: store)
                let event = try await app.placedEvent(of: order)

                let hit = try await receiver.waitForHits(1, to: "/ok")[0]
                #expect(hit.headers["webhook-id"] == event.id)
                #expect(hit.body == event.json)
                #expect(hit.headers["content-type"] == "application/json")
                let timestamp = try #require(hit.headers["webhook-timestamp"].flatMap { Int64($0) })
                #expect(abs(Date().timeIntervalSince1970 - Double(timestamp)) < 300)
                #expect(hit.headers["webhook-signature"]?.hasPrefix("v1,") == true)
                #expect(try WebhookVerifiers.verifyIndependently(secret: secret, hit: hit))
                #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: secret, hit: hit))
                // A wrong secret is refused by both: the checks do check.
                let other = WebhookSigning.newSecret()
                #expect(try !WebhookVerifiers.verifyIndependently(secret: other, hit: hit))
                #expect(try await !WebhookVerifiers.verifyWithStandardWebhooks(secret: other, hit: hit))

                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "succeeded")
                #expect(delivery["eventId"].string == event.id)
                #expect(delivery["eventType"].string == "order.placed")
                #expect(delivery["attempts"].int == 1)
                #expect(delivery["lastResponseCode"].int == 200)
                #expect(delivery.has("lastAttemptAt"))
                #expect(!delivery.has("nextAttemptAt"))
            }
        }
    }

    @Test("a receiver failing 3 times then accepting gets the same webhook-id 4 times, then never again")
    func retriesUntilAccepted() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: Array(repeating: .milliseconds(200), count: 7)) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/flaky/3"))
                let (_, order, _) = try await app.placeOrder(store: store)
                let event = try await app.placedEvent(of: order)

                let hits = try await receiver.waitForHits(4, to: "/flaky/3")
                #expect(Set(hits.map { $0.headers["webhook-id"] }) == [event.id])
                #expect(Set(hits.map(\.body)) == [event.json])
                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "succeeded")
                #expect(delivery["attempts"].int == 4)
                // No fifth request: had the success been taken for a failure (or the delivery been
                // claimed again), a fifth attempt would have come due within one pause of it, and
                // the dispatcher has since come round twice, two pauses apart. A claim counts the
                // attempt before sending it, so the delivery's count shows one still on its way.
                try await app.waitForTwoDispatcherRounds(at: receiver)
                #expect(await receiver.hits(to: "/flaky/3").count == 4)
                #expect(try await app.deliveries(of: webhook, by: manager).map { $0["attempts"].int } == [4])
                // The endpoint recovered: it is not marked failing.
                let endpoint = try await app.request(.get, "/v1/webhooks/\(webhook["id"].string!)", token: manager.token).json
                #expect(!endpoint.has("failingSince"))
            }
        }
    }

    @Test("a 3xx is not followed and counts as a failure")
    func redirectNotFollowed() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: []) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/redirect"))
                _ = try await app.placeOrder(store: store)
                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "failed")
                #expect(delivery["lastResponseCode"].int == 307)
                #expect(await receiver.hits(to: "/redirect").count == 1)
                #expect(await receiver.hits(to: "/target").isEmpty)
            }
        }
    }

    @Test("an endless response body is not read: the sender hangs up after a little and records its 200")
    func hugeBodyNotRead() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: []) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/huge"))
                _ = try await app.placeOrder(store: store)
                try await receiver.waitForHugeCut()
                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "succeeded")
                #expect(delivery["lastResponseCode"].int == 200)
            }
        }
    }

    @Test("an exhausted schedule leaves the delivery failed, with the status and a short excerpt of the body")
    func exhaustedScheduleFails() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: [.milliseconds(100), .milliseconds(100)]) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/fail"))
                _ = try await app.placeOrder(store: store)
                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "failed")
                #expect(delivery["attempts"].int == 3)
                #expect(delivery["lastResponseCode"].int == 500)
                let error = try #require(delivery["lastError"].string)
                #expect(error.hasPrefix("HTTP 500: nope"))
                #expect(error.count < 600)
                #expect(await receiver.hits(to: "/fail").count == 3)

                // Redelivered by hand: one more attempt with the same webhook-id.
                let redone = try await app.request(
                    .post, "/v1/webhooks/\(webhook["id"].string!)/deliveries/\(delivery["id"].string!)/redeliver", token: manager.token)
                #expect(redone.status == .accepted)
                #expect(redone.json["status"].string == "pending")
                let hits = try await receiver.waitForHits(4, to: "/fail")
                #expect(Set(hits.map { $0.headers["webhook-id"] }).count == 1)
                let again = try await app.waitForDelivery(of: webhook, by: manager, status: "failed")
                #expect(again["attempts"].int == 4)
            }
        }
    }

    @Test("an endpoint failing longer than the threshold is disabled with a reason its manager reads; enabling clears it")
    func failingEndpointDisabled() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: [.seconds(60)]) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/fail"))
                let id = webhook["id"].string!
                // It has been failing for six days (more than the default five).
                _ = try await sql("UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE id = $1", [id], on: app.database)
                _ = try await app.placeOrder(store: store)
                var endpoint = JSONValue.null
                for _ in 0..<300 {
                    endpoint = try await app.request(.get, "/v1/webhooks/\(id)", token: manager.token).json
                    if endpoint["enabled"].bool == false { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(endpoint["enabled"].bool == false)
                let reason = try #require(endpoint["disabledReason"].string)
                #expect(reason.contains("failed since"))
                #expect(reason.contains("HTTP 500"))
                // Disabled, it gets no new deliveries.
                _ = try await app.placeOrder(store: store)
                #expect(try await app.deliveries(of: webhook, by: manager).count == 1)

                let enabled = try await app.request(.patch, "/v1/webhooks/\(id)", json: ["enabled": true], token: manager.token)
                #expect(enabled.status == .ok)
                #expect(enabled.json["enabled"].bool == true)
                #expect(!enabled.json.has("disabledReason"))
                #expect(!enabled.json.has("failingSince"))
            }
        }
    }

    @Test("a chain-wide endpoint of an admin gets every store's events")
    func chainWideEndpoint() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let admin = try await app.signInAdmin()
                let webhook = try await app.createWebhook(admin, url: receiver.url("/ok"))
                #expect(!webhook.has("storeId"))
                let first = try await app.createStore()
                let second = try await app.createStore()
                _ = try await app.placeOrder(store: first)
                _ = try await app.placeOrder(store: second)
                let hits = try await receiver.waitForHits(2, to: "/ok")
                let stores = hits.compactMap { hit in
                    (try? JSONDecoder().decode(JSONValue.self, from: Data(hit.body.utf8)))?["storeId"].string
                }
                #expect(Set(stores) == [first, second])
            }
        }
    }
}
