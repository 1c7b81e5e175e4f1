import Foundation
import Logging
import PostgresNIO
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The webhook dispatcher is woken when a store with somewhere to send has new numbered events,
/// and only then (migration 021): most stores have no endpoint, and a claim statement after
/// every event of theirs was a tenth of the service's CPU in checkout-bench (issue 15).
@Suite("The webhook dispatcher wakes for stores with an endpoint")
struct DispatcherWakeTests {
    @Test("the bus reads the channel's three kinds of notice, and anything else as unreadable")
    func notices() {
        let store = StoreID(UUID().uuidString.lowercased())!
        #expect(EventBus.Notice(payload: "\(store)") == .written(store))
        #expect(EventBus.Notice(payload: "\(store) 12") == .numbered(store, webhooks: false))
        #expect(EventBus.Notice(payload: "\(store) 12 webhooks") == .numbered(store, webhooks: true))
        for payload in ["", "not-a-store", "\(store) twelve", "\(store) 12 hooks", "\(store) 12 webhooks more", "\(store)  12"] {
            #expect(EventBus.Notice(payload: payload) == .unreadable, "\(payload)")
        }
    }

    @Test("a numbering round says webhooks only while the store has an enabled endpoint, its own or the chain's")
    func numberedNotice() async throws {
        // The endpoints are on 127.0.0.1: a private address, allowed here.
        try await withApp(configure: { $0.webhookDispatch.allowPrivate = true }) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let admin = try await app.signInAdmin()
            try await app.withDatabase { database in
                try await database.client.withConnection { connection in
                    try await connection.listen(on: EventBus.channel) { notifications in
                        var heard = notifications.makeAsyncIterator()
                        // An event written now is numbered by the app's own bus (or by us, should
                        // it be slow); either way the round's notice is what we read.
                        func nextRound() async throws -> Bool? {
                            _ = try await sql("SELECT emit_event($1, 'stock.low', NULL, '{}')", [store], on: app.database)
                            _ = try await sql("SELECT number_events($1)", [store], on: app.database)
                            while let notification = try await heard.next() {
                                if case .numbered(let numbered, let webhooks) = EventBus.Notice(payload: notification.payload),
                                    numbered == StoreID(store)
                                {
                                    return webhooks
                                }
                            }
                            return nil
                        }
                        #expect(try await nextRound() == false)

                        let own = try await app.createWebhook(manager, url: "http://127.0.0.1:9/unreachable")
                        #expect(try await nextRound() == true)

                        _ = try await sql("UPDATE webhook_endpoints SET enabled = false WHERE id = $1", [own["id"].string!], on: app.database)
                        #expect(try await nextRound() == false)

                        _ = try await app.createWebhook(admin, url: "http://127.0.0.1:9/unreachable")
                        #expect(try await nextRound() == true)
                    }
                }
            }
        }
    }

    @Test("with a poll of a minute, a checkout's delivery still goes at once: the round's notice woke the dispatcher")
    func wokenByTheRound() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: {
                $0.webhookDispatch.pollInterval = .seconds(60)
                $0.webhookDispatch.allowPrivate = true
            }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                _ = try await app.createWebhook(manager, url: receiver.url("/ok"))
                // The dispatcher's first look (at start) is behind us; the next poll is a minute away.
                try await Task.sleep(for: .milliseconds(500))
                _ = try await app.placeOrder(store: store)
                _ = try await receiver.waitForHits(1, to: "/ok", seconds: 30)
            }
        }
    }
}
