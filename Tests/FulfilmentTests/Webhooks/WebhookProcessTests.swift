import Foundation
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The dispatcher in real `fulfilment serve` processes: killed between sending and recording,
/// and two of them on one database (issue 14).
@Suite("Webhooks: kill -9 between send and record, and two instances, against real processes")
struct WebhookProcessTests {
    func withKeysAndDatabase(_ body: (URL, ConnectionInfo) async throws -> Void) async throws {
        let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
        _ = try PickupKeys.generate(in: keys)
        defer { try? FileManager.default.removeItem(at: keys) }
        try await withTestDatabase { database in try await body(keys, database) }
    }

    @Test("killed after the receiver answered 200 but before recording it: sent again with the same webhook-id, then succeeded")
    func killBetweenSendAndRecord() async throws {
        try await withWebhookReceiver { receiver in
            try await withKeysAndDatabase { keys, database in
                let quick = ["FULFILMENT_WEBHOOK_POLL_MS": "100", "FULFILMENT_WEBHOOK_LEASE_SECONDS": "2", "FULFILMENT_WEBHOOK_ALLOW_PRIVATE": "1"]
                // The first process holds every response for a minute before recording it.
                let first = try await ServiceProcess.start(
                    database: database, keysDir: keys, environment: quick.merging(["FULFILMENT_WEBHOOK_RECORD_DELAY_MS": "60000"]) { $1 })
                defer {
                    first.signal(SIGKILL)
                    _ = first.exitStatus()
                }
                let app = first.app(database: database)
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let (_, order, _) = try await app.placeOrder(store: store)
                let event = try await app.placedEvent(of: order)

                let answered = try await receiver.waitForHits(1, to: "/ok")
                first.signal(SIGKILL)
                _ = try await first.waitForExit()
                #expect(answered[0].headers["webhook-id"] == event.id)
                let unrecorded = try await sql(
                    "SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1", [webhook["id"].string!], on: database)
                #expect(unrecorded.first == ["pending", "1"])

                let second = try await ServiceProcess.start(database: database, keysDir: keys, environment: quick)
                defer {
                    second.signal(SIGKILL)
                    _ = second.exitStatus()
                }
                let again = try await receiver.waitForHits(2, to: "/ok")
                #expect(again[1].headers["webhook-id"] == event.id)
                #expect(again[1].body == event.json)
                let delivery = try await second.app(database: database).waitForDelivery(of: webhook, by: manager, status: "succeeded")
                #expect(delivery["attempts"].int == 2)
            }
        }
    }

    @Test("two instances on one database: every event reaches the receiver exactly once, and no delivery is attempted twice")
    func twoInstancesSendEachOnce() async throws {
        try await withWebhookReceiver { receiver in
            try await withKeysAndDatabase { keys, database in
                // 24 customers sign up at once: room for all of them in the sign-in queue. Retries
                // after 0.2 s: only the marker of `waitForTwoDispatcherRounds` is ever retried.
                let quick = [
                    "FULFILMENT_WEBHOOK_POLL_MS": "50", "FULFILMENT_BCRYPT_WAITING": "64", "FULFILMENT_WEBHOOK_ALLOW_PRIVATE": "1",
                    "FULFILMENT_WEBHOOK_RETRY_SCHEDULE": "0.2,0.2,0.2",
                ]
                let one = try await ServiceProcess.start(database: database, keysDir: keys, environment: quick)
                defer {
                    one.signal(SIGKILL)
                    _ = one.exitStatus()
                }
                let two = try await ServiceProcess.start(database: database, keysDir: keys, environment: quick)
                defer {
                    two.signal(SIGKILL)
                    _ = two.exitStatus()
                }
                let app = one.app(database: database)
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let endpoint = try await app.createWebhook(manager, url: receiver.url("/ok"))["id"].string!
                let count = 24
                // Checkouts through both instances at once, so both dispatchers have work together.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        let via = (index.isMultiple(of: 2) ? one : two).app(database: database)
                        group.addTask { _ = try await via.placeOrder(store: store) }
                    }
                    try await group.waitForAll()
                }
                let events = try await sql(
                    "SELECT id FROM events WHERE store_id = $1 AND type = 'order.placed'", [store], on: database
                ).compactMap { $0[0] }
                #expect(events.count == count)
                let hits = try await receiver.waitForHits(count, to: "/ok", seconds: 60)
                // Until any duplicate would show: every delivery recorded, each once its answer came
                // back, so a second request sent for one has arrived; a delivery claimed twice has
                // both claims in its attempts (counted at the claim, before sending); and the
                // dispatchers have come round twice since, so one claimed again after its success
                // would have been too.
                try await waitUntil("every delivery recorded", seconds: 60) {
                    try await sql(
                        "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'", [endpoint], on: database)
                        == [["0"]]
                }
                try await app.waitForTwoDispatcherRounds(at: receiver)
                let ids = await receiver.hits(to: "/ok").compactMap { $0.headers["webhook-id"] }
                #expect(ids.count == count, "\(ids.count) requests for \(count) events")
                #expect(Set(ids) == Set(events))
                #expect(hits.count >= count)
                let attempts = try await sql(
                    "SELECT status, attempts, count(*) FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status, attempts", [endpoint],
                    on: database)
                #expect(attempts == [["succeeded", "1", String(count)]])
            }
        }
    }
}
