import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Who may keep webhook endpoints, and whose (issue 14): managers their own store's, admins all;
/// the secret is shown once.
@Suite("Webhooks: access, store scoping, the secret shown once, and input rules")
struct WebhookAccessTests {
    @Test("customers and staff are refused (403); without a session 401")
    func customersAndStaffRefused() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let customer = try await app.registerCustomer()
            let staff = try await app.signIn(role: .staff, store: store)
            for session in [customer, staff] {
                let create = try await app.request(.post, "/v1/webhooks", json: ["url": "https://partner.example/h"], token: session.token)
                #expect(create.status == .forbidden)
                #expect(try await app.request(.get, "/v1/webhooks", token: session.token).status == .forbidden)
            }
            #expect(try await app.request(.get, "/v1/webhooks").status == .unauthorized)
        }
    }

    @Test("a manager neither sees nor touches another store's endpoint (404), nor creates one for it (403)")
    func managersScopedToTheirStore() async throws {
        try await withApp { app in
            let mine = try await app.createStore()
            let theirs = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: mine)
            let other = try await app.signIn(role: .manager, store: theirs)
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/mine")
            #expect(webhook["storeId"].string == mine)
            let id = webhook["id"].string!

            #expect(try await app.request(.get, "/v1/webhooks/\(id)", token: other.token).status == .notFound)
            #expect(try await app.request(.patch, "/v1/webhooks/\(id)", json: ["enabled": false], token: other.token).status == .notFound)
            #expect(try await app.request(.get, "/v1/webhooks/\(id)/deliveries", token: other.token).status == .notFound)
            #expect(try await app.request(.delete, "/v1/webhooks/\(id)", token: other.token).status == .notFound)
            #expect(try await app.request(.get, "/v1/webhooks", token: other.token).json["items"].array.isEmpty)
            let forOtherStore = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/x", "storeId": .string(mine)], token: other.token)
            #expect(forOtherStore.status == .forbidden)

            // Still there, untouched, for its own manager.
            let mineNow = try await app.request(.get, "/v1/webhooks/\(id)", token: manager.token)
            #expect(mineNow.status == .ok)
            #expect(mineNow.json["enabled"].bool == true)
            #expect(try await app.request(.get, "/v1/webhooks", token: manager.token).json["items"].array.count == 1)
            #expect(try await app.request(.delete, "/v1/webhooks/\(id)", token: manager.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/webhooks/\(id)", token: manager.token).status == .notFound)
        }
    }

    @Test("an admin keeps any store's endpoints and the chain's; an unknown store is 404")
    func adminsSeeAll() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let admin = try await app.signInAdmin()
            let managers = try await app.createWebhook(manager, url: "https://partner.example/store")
            let chain = try await app.createWebhook(admin, url: "https://partner.example/chain", eventTypes: [])
            #expect(!chain.has("storeId"))
            #expect(chain["eventTypes"].array.isEmpty)
            let forStore = try await app.createWebhook(admin, url: "https://partner.example/for-store", storeID: store)
            #expect(forStore["storeId"].string == store)
            let listed = try await app.request(.get, "/v1/webhooks", token: admin.token).json["items"].array.compactMap { $0["id"].string }
            #expect(Set(listed) == Set([managers, chain, forStore].compactMap { $0["id"].string }))
            // The manager sees their store's two, not the chain's.
            #expect(try await app.request(.get, "/v1/webhooks", token: manager.token).json["items"].array.count == 2)
            let unknown = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/x", "storeId": .string(UUID().uuidString)], token: admin.token)
            #expect(unknown.status == .notFound)
        }
    }

    @Test("the secret is in the create answer only, never in a read, a list or a change")
    func secretShownOnce() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/h")
            let secret = webhook["secret"].string!
            #expect(secret.hasPrefix("whsec_"))
            let id = webhook["id"].string!
            let reads = [
                try await app.request(.get, "/v1/webhooks/\(id)", token: manager.token),
                try await app.request(.get, "/v1/webhooks", token: manager.token),
                try await app.request(.patch, "/v1/webhooks/\(id)", json: ["description": "orders"], token: manager.token),
                try await app.request(.get, "/v1/webhooks/\(id)/deliveries", token: manager.token),
            ]
            for reply in reads {
                #expect(reply.status == .ok)
                #expect(!reply.text.contains(secret))
                #expect(!reply.text.contains("secret"))
            }
        }
    }

    @Test("a description is at most 500 code points, as the contract and the table count: 300 × 'नी' (600) is 422, not a 500")
    func descriptionInCodePoints() async throws {
        try await withApp { app in
            let manager = try await app.signIn(role: .manager, store: try await app.createStore())
            let long = String(repeating: "नी", count: 300)  // 300 graphemes, 600 code points
            let reply = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "description": .string(long)], token: manager.token)
            #expect(reply.status == .unprocessableContent)
            #expect(reply.json["error"]["details"]["field"].string == "description")
            let fits = String(repeating: "नी", count: 250)
            let created = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "description": .string(fits)], token: manager.token)
            #expect(created.status == .created)
        }
    }

    @Test("a URL that is not http(s) with a host is 422 invalid_url; an unknown event type or more than 20 are refused")
    func inputRules() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            for bad in ["ftp://partner.example/h", "https://", "not a url", "https://x/" + String(repeating: "a", count: 2000)] {
                let reply = try await app.request(.post, "/v1/webhooks", json: ["url": .string(bad)], token: manager.token)
                #expect(reply.status == .unprocessableContent, "\(bad.prefix(40))")
                #expect(reply.errorCode == "invalid_url", "\(bad.prefix(40))")
            }
            let unknownType = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "eventTypes": ["order.teleported"]], token: manager.token)
            #expect(unknownType.status == .unprocessableContent)
            // The contract's maxItems counts repeats: 21 entries are refused though they fold to 1.
            let tooMany = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "eventTypes": .array(Array(repeating: "order.placed", count: 21))],
                token: manager.token)
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.json["error"]["details"]["field"].string == "eventTypes")
            let twenty = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "eventTypes": .array(Array(repeating: "order.placed", count: 20))],
                token: manager.token)
            #expect(twenty.status == .created)
            #expect(twenty.json["eventTypes"].array.count == 1)
            let extra = try await app.request(
                .post, "/v1/webhooks", json: ["url": "https://partner.example/h", "secret": "whsec_mine"], token: manager.token)
            #expect(extra.status == .unprocessableContent)
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/h")
            let badPatch = try await app.request(
                .patch, "/v1/webhooks/\(webhook["id"].string!)", json: ["url": "gopher://x"], token: manager.token)
            #expect(badPatch.errorCode == "invalid_url")
        }
    }

    @Test("redelivering a pending delivery is 409; an unknown delivery 404")
    func redeliverRules() async throws {
        try await withApp(configure: { $0.webhookDispatch.sending = false }) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/h")
            _ = try await app.placeOrder(store: store)
            let delivery = try #require(try await app.deliveries(of: webhook, by: manager).first)
            #expect(delivery["status"].string == "pending")
            #expect(delivery["attempts"].int == 0)
            let id = webhook["id"].string!
            let pending = try await app.request(
                .post, "/v1/webhooks/\(id)/deliveries/\(delivery["id"].string!)/redeliver", token: manager.token)
            #expect(pending.status == .conflict)
            #expect(pending.errorCode == "delivery_pending")
            let unknown = try await app.request(.post, "/v1/webhooks/\(id)/deliveries/\(UUID().uuidString)/redeliver", token: manager.token)
            #expect(unknown.status == .notFound)
        }
    }
}
