import Foundation
import Logging
import PostgresNIO
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A slow receiver stalls nobody else (issue 24): each attempt has one deadline for everything,
/// attempts go concurrently, and an endpoint is a lane of at most `perEndpoint` attempts in
/// flight over every instance, kept in the database.
@Suite("Webhooks: a slow receiver holds only its own lane, and only until its deadline")
struct SlowReceiverTests {
    @Test("while a receiver trickles its answers to three deliveries, another store's endpoint gets its event")
    func healthyNotHeldByTrickler() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: {
                $0.quickWebhooks(schedule: [])
                // Room for two attempts: without lanes the trickler's backlog would take both.
                $0.webhookDispatch.concurrency = 2
                $0.webhookDispatch.perEndpoint = 1
                $0.webhookDispatch.timeout = .seconds(30)
            }) { app in
                let slow = try await app.createStore()
                let healthy = try await app.createStore()
                let slowManager = try await app.signIn(role: .manager, store: slow)
                let healthyManager = try await app.signIn(role: .manager, store: healthy)
                let trickler = try await app.createWebhook(slowManager, url: receiver.url("/trickle/500"))
                _ = try await app.createWebhook(healthyManager, url: receiver.url("/ok"))
                for _ in 0..<3 { _ = try await app.placeOrder(store: slow) }
                try await receiver.waitForTrickling(1)

                _ = try await app.placeOrder(store: healthy)
                _ = try await receiver.waitForHits(1, to: "/ok", seconds: 10)
                // Delivered while the trickler is still being answered, which had one lane only.
                #expect(await receiver.trickling == 1)
                #expect(await receiver.hits(to: "/trickle/500").count == 1)
                let pending = try await app.deliveries(of: trickler, by: slowManager).filter { $0["status"].string == "pending" }
                #expect(pending.count == 3)
            }
        }
    }

    @Test("an attempt whose answer trickles in ends at its deadline, recorded as timed out")
    func trickleEndsAtDeadline() async throws {
        try await withWebhookReceiver { receiver in
            // The old read timeout restarted with every byte: a byte every 300 ms kept it alive.
            try await withApp(configure: {
                $0.quickWebhooks(schedule: [])
                $0.webhookDispatch.timeout = .seconds(2)
            }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/trickle/300"))
                _ = try await app.placeOrder(store: store)
                try await receiver.waitForTrickling(1)
                let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "failed", seconds: 20)
                #expect(delivery["lastError"].string == "timed out")
                #expect(delivery["attempts"].int == 1)
            }
        }
    }

    @Test("the claim hands out at most perEndpoint deliveries of an endpoint in flight, even to claimers racing on separate connections")
    func claimKeepsLanes() async throws {
        try await withApp(configure: { $0.webhookDispatch.sending = false }) { app in
            let store = try await app.createStore()
            let other = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let otherManager = try await app.signIn(role: .manager, store: other)
            let busy = try await app.createWebhook(manager, url: "https://partner.example/busy")
            let quiet = try await app.createWebhook(otherManager, url: "https://partner.example/quiet")
            for _ in 0..<6 { _ = try await app.placeOrder(store: store) }
            _ = try await app.placeOrder(store: other)
            // The app's bus numbers the events; a claim hands out deliveries of numbered ones only.
            for _ in 0..<200 {
                let waiting = try await sql(
                    "SELECT count(*) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.sequence IS NOT NULL",
                    on: app.database)
                if waiting == [["7"]] { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let claim = "SELECT endpoint_id FROM claim_webhook_deliveries(10, 60, 2)"

            // Six claimers, as six instances would: each on a connection of its own, opened
            // first, then all released at once.
            let racers = 6
            let start = StartSignal()
            let claimed = try await app.withDatabase { database in
                try await withThrowingTaskGroup(of: [String?].self) { group in
                    for _ in 0..<racers {
                        group.addTask {
                            try await database.client.withConnection { connection in
                                try await connection.run("SELECT 1", logger: Logger(label: "test"))
                                await start.wait()
                                let rows = try await connection.run(PostgresQuery(unsafeSQL: claim), logger: Logger(label: "test"))
                                var endpoints: [String?] = []
                                for try await endpoint in rows.decode(UUID.self) { endpoints.append(endpoint.uuidString.lowercased()) }
                                return endpoints
                            }
                        }
                    }
                    await start.open(waiters: racers)
                    return try await group.reduce(into: [String?]()) { $0 += $1 }
                }
            }
            #expect(claimed.filter { $0 == busy["id"].string }.count == 2)
            #expect(claimed.filter { $0 == quiet["id"].string }.count == 1)
            // Both of the busy endpoint's lanes are taken until an attempt is recorded.
            #expect(try await sql(claim, on: app.database).isEmpty)
            _ = try await sql(
                """
                UPDATE webhook_deliveries SET status = 'succeeded'
                WHERE id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND attempts = 1 LIMIT 1)
                """, [busy["id"].string!], on: app.database)
            #expect(try await sql(claim, on: app.database).count == 1)
            // A failure recorded with a retry frees its lane as well.
            _ = try await sql(
                """
                UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour'
                WHERE id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND attempts = 1 LIMIT 1)
                """, [busy["id"].string!], on: app.database)
            #expect(try await sql(claim, on: app.database).count == 1)
        }
    }
}
