import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Waits (at most 10 s) until the running app has numbered every event of `store`.
func waitUntilNumbered(_ app: TestApp, store: String) async throws {
    for _ in 0..<200 {
        let left = try await sql("SELECT count(*) FROM events WHERE store_id = $1 AND sequence IS NULL", [store], on: app.database)
        if left[0][0] == "0" { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("events of store \(store) were still unnumbered after 10 s")
}

/// Events are written unnumbered and numbered just after they commit (migration 019), so that a
/// store's commits need not wait for each other; the numbers must still run 1, 2, 3... per
/// store, without a gap or a repeat, whoever numbers and however many at once.
@Suite("Events are numbered after they commit: per store, from 1, without gaps, one numberer at a time")
struct EventNumberingTests {
    @Test("writers and numberers at once, each on its own connection, beside the app's own: 1...N, no gap, no repeat, no error")
    func numberersRace() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let writers = 4
            let eventsEach = 40
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<writers {
                    group.addTask {
                        for _ in 0..<eventsEach {
                            _ = try await sql(
                                "INSERT INTO events (store_id, type, data) VALUES ($1, 'stock.low', '{}')", [store], on: app.database)
                        }
                    }
                    group.addTask {
                        for _ in 0..<eventsEach {
                            _ = try await sql("SELECT number_events($1)", [store], on: app.database)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await waitUntilNumbered(app, store: store)
            let numbers = try await sql(
                "SELECT sequence FROM events WHERE store_id = $1 ORDER BY sequence", [store], on: app.database
            ).map { Int($0[0]!)! }
            #expect(numbers == Array(1...(writers * eventsEach)))
            let last = try await sql("SELECT last FROM event_sequences WHERE store_id = $1", [store], on: app.database)
            #expect(last == [[String(writers * eventsEach)]])
        }
    }

    @Test("a checkout's event is numbered by the app itself, and the store's stream is told")
    func appNumbers() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (_, order, _) = try await app.placeOrder(store: store)
            try await waitUntilNumbered(app, store: store)
            let rows = try await sql("SELECT sequence, type FROM events WHERE order_id = $1", [order["id"].string!], on: app.database)
            #expect(rows == [["1", "order.placed"]])
        }
    }
}
