import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// PostgreSQL going away and coming back under the service (issue 12).
@Suite("Outage: the database restarts under load")
struct OutageTests {
    @Test("while PostgreSQL is down: 503 database_unavailable with Retry-After, never a 500 or a hang; it recovers by itself")
    func databaseRestart() async throws {
        try await withEmbeddedCluster(durability: .unsafeFast) { embedded in try await outage(embedded) }
    }

    @Test("connections the server ends are replaced, and requests go on, never a 500")
    func endedConnectionsReplaced() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            // Some pooled connections, idle between requests.
            _ = try await app.race(4) { _, racer in try await racer.request(.get, "/v1/stores/\(store)") }
            #expect(Int(try await sql("SELECT count(*) \(others)", on: app.database)[0][0] ?? "0") ?? 0 > 0)

            _ = try await sql("SELECT pg_terminate_backend(pid) \(others)", on: app.database)
            var statuses: [UInt] = []
            for _ in 0..<20 {
                statuses.append(UInt(try await app.request(.get, "/v1/stores/\(store)").status.code))
                if statuses.last != 200 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(Set(statuses).isSubset(of: [200, 503]), "\(statuses)")
            #expect(statuses.suffix(5) == [200, 200, 200, 200, 200], "\(statuses)")
        }
    }

    func outage(_ embedded: EmbeddedPostgres) async throws {
        try await withApp(database: embedded.connectionInfo) { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 100)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            #expect(try await app.checkout(customer).status == .created)

            // Customers keep coming while the database is stopped (fast) and started again.
            let statuses = StatusLog()
            let load = Task {
                try await app.race(4) { _, racer in
                    for _ in 0..<20_000 where await !statuses.isStopped {
                        let reply = try await racer.request(.get, "/v1/stores/\(store)")
                        await statuses.add(reply.status.code, retryAfter: reply.headers[.retryAfter] != nil, code: reply.errorCode)
                    }
                }
            }
            // The outage starts while requests are in flight: a query written to a connection
            // that had just closed once waited for ever, and the server's shutdown with it.
            for _ in 0..<300 where await (statuses.counts[200] ?? 0) < 8 { try await Task.sleep(for: .milliseconds(100)) }
            #expect((await statuses.counts[200] ?? 0) >= 8, "the load never got going")
            embedded.stop()
            try await Task.sleep(for: .seconds(2))
            let down = try await app.request(.get, "/readyz")
            #expect(down.status == .serviceUnavailable)
            let refused = try await app.checkout(customer)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.errorCode == "database_unavailable")
            #expect(refused.headers[.retryAfter] == "2")
            try embedded.start(durability: .unsafeFast)
            var back = try await app.request(.get, "/readyz").status
            for _ in 0..<40 where back != .ok {
                try await Task.sleep(for: .milliseconds(250))
                back = try await app.request(.get, "/readyz").status
            }
            #expect(back == .ok)
            try await Task.sleep(for: .milliseconds(500))
            await statuses.stop()
            _ = try await load.value

            let seen = await statuses.counts
            #expect(seen[500] == nil, "a 500 during the outage: \(seen)")
            #expect(Set(seen.keys).isSubset(of: [200, 503]), "\(seen)")
            #expect((seen[503] ?? 0) > 0, "the outage was never noticed: \(seen)")
            #expect(await statuses.every503WasDatabaseUnavailable)
            // Nothing committed before the outage was lost, and checkouts work again.
            #expect(try await sql("SELECT count(*) FROM orders", on: embedded.connectionInfo)[0][0] == "1")
            try await app.fillCart(customer, store: store, [(product, 1)])
            #expect(try await app.checkout(customer).status == .created)
        }
    }
}

actor StatusLog {
    private(set) var counts: [Int: Int] = [:]
    private(set) var every503WasDatabaseUnavailable = true
    private(set) var isStopped = false

    func add(_ status: Int, retryAfter: Bool, code: String?) {
        counts[status, default: 0] += 1
        if status == 503, !(retryAfter && code == "database_unavailable") { every503WasDatabaseUnavailable = false }
    }

    func stop() { isStopped = true }
}
