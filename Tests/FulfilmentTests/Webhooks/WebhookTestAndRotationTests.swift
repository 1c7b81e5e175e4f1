import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a manager wiring up a partner checks the endpoint with a test message before any
/// order comes, and, when a secret leaks, replaces it; both through the API the console uses.
@Suite("Webhooks: a test message, and a new secret")
struct WebhookTestAndRotationTests {
    @Test("a test is signed with the endpoint's secret (two verifiers agree), is no event and no delivery; a refusal is said with its status")
    func testMessage() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let id = webhook["id"].string!
                let sent = try await app.request(.post, "/v1/webhooks/\(id)/test", token: manager.token)
                #expect(sent.status == .ok)
                #expect(sent.json["delivered"].bool == true && sent.json["responseCode"].int == 200 && sent.json["error"] == .null)
                let hit = try #require(try await receiver.waitForHits(1, to: "/ok").first)
                #expect(try WebhookVerifiers.verifyIndependently(secret: webhook["secret"].string!, hit: hit))
                #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: webhook["secret"].string!, hit: hit))
                let body = try JSONDecoder().decode(JSONValue.self, from: Data(hit.body.utf8))
                #expect(body["type"].string == "webhook.test" && body["storeId"].string == store && body["data"]["endpointId"].string == id)
                // Not an event, not a delivery.
                #expect(try await app.deliveries(of: webhook, by: manager).isEmpty)
                #expect(try await sql("SELECT count(*)::text FROM events WHERE store_id = $1", [store], on: app.database) == [["0"]])

                // A receiver that refuses: 200 for the request, the refusal said.
                let failing = try await app.createWebhook(manager, url: receiver.url("/fail"))
                let refused = try await app.request(.post, "/v1/webhooks/\(failing["id"].string!)/test", token: manager.token)
                #expect(refused.status == .ok)
                #expect(refused.json["delivered"].bool == false && refused.json["responseCode"].int == 500)
                // Another store's manager does not find it.
                let stranger = try await app.signIn(role: .manager, store: try await app.createStore())
                #expect(try await app.request(.post, "/v1/webhooks/\(id)/test", token: stranger.token).status == .notFound)
                #expect(await receiver.hits(to: "/ok").count == 1)
            }
        }
    }

    @Test("a new secret is shown once and signs what follows; the old one no longer verifies; another store's is not found")
    func rotation() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let id = webhook["id"].string!
                let stranger = try await app.signIn(role: .manager, store: try await app.createStore())
                #expect(try await app.request(.post, "/v1/webhooks/\(id)/secret", token: stranger.token).status == .notFound)
                let sealedBefore = try await sql("SELECT encode(secret_sealed, 'hex') FROM webhook_endpoints WHERE id = $1", [id], on: app.database)

                let rotated = try await app.request(.post, "/v1/webhooks/\(id)/secret", token: manager.token)
                #expect(rotated.status == .ok)
                let secret = try #require(rotated.json["secret"].string)
                #expect(secret.hasPrefix("whsec_") && secret != webhook["secret"].string)
                #expect(rotated.json["id"].string == id)
                #expect(try await app.request(.get, "/v1/webhooks/\(id)", token: manager.token).json["secret"] == .null, "shown once")
                #expect(
                    try await sql("SELECT encode(secret_sealed, 'hex') FROM webhook_endpoints WHERE id = $1", [id], on: app.database) != sealedBefore)
                #expect(
                    try await sql(
                        "SELECT count(*)::text FROM webhook_endpoints WHERE position($1 in coalesce(secret, '')) > 0", [secret], on: app.database)
                        == [["0"]], "sealed, never plain")

                _ = try await app.placeOrder(store: store)
                let hit = try #require(try await receiver.waitForHits(1, to: "/ok").first)
                #expect(try WebhookVerifiers.verifyIndependently(secret: secret, hit: hit))
                #expect(try !WebhookVerifiers.verifyIndependently(secret: webhook["secret"].string!, hit: hit))
            }
        }
    }
}
