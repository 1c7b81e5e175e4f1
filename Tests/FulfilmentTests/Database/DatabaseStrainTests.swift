import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The answers a database gives under strain (issue 42): a statement PostgreSQL cancels is a
/// `503` with `Retry-After`, never a 500; a request that cannot get a connection waits a bounded
/// time and is then a `503`, never a hang.
@Suite("A database under strain: cancelled statements and no free connection are 503s, never 500s or hangs")
struct DatabaseStrainTests {
    let logger = Logger(label: "test")

    @Test("a statement PostgreSQL cancels (57014, as statement_timeout does) is 503 database_busy with Retry-After, and stores nothing")
    func cancelledByTheServer() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer()
            let store = try await app.createStore()
            // Another session holds the cart table, so the write waits on it until PostgreSQL cancels it.
            let holder = try LibPQConnection(app.database)
            _ = try holder.execute("BEGIN")
            _ = try holder.execute("LOCK TABLE carts IN ACCESS EXCLUSIVE MODE")
            let canceller = Task {
                for _ in 0..<200 {
                    let cancelled = try await sql(
                        """
                        SELECT pg_cancel_backend(pid) FROM pg_stat_activity
                        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                        """, on: app.database)
                    if cancelled.contains(where: { $0.first == "t" }) { return true }
                    try await Task.sleep(for: .milliseconds(25))
                }
                return false
            }
            let reply = try await app.request(.put, "/v1/cart", json: ["storeId": .string(store)], token: customer.token)
            #expect(try await canceller.value, "no statement waited on the lock")
            _ = try holder.execute("ROLLBACK")
            #expect(reply.status == .serviceUnavailable, "\(reply.status) \(reply.text)")
            #expect(reply.errorCode == "database_busy")
            #expect(reply.headers[.retryAfter] != nil)
            #expect(try await sql("SELECT count(*) FROM carts", on: app.database)[0][0] == "0")
            // The same request once the lock is gone.
            #expect(try await app.request(.put, "/v1/cart", json: ["storeId": .string(store)], token: customer.token).status == .ok)
        }
    }

    @Test("with every connection busy, a statement waits for one at most the lease wait, then is database_unavailable; nothing runs")
    func boundedLease() async throws {
        try await withTestDatabase { info in
            _ = try await sql("CREATE TABLE marks (n int)", on: info)
            // A pool of one for requests (and one for the event listener): two statements fill it.
            let database = try Database(connection: info, logger: logger, poolSize: 1)
            try await withRunning(database) {
                let (holding, finished) = (Count(), Count())
                let busy = (0..<2).map { _ in
                    Task {
                        try await database.client.leasing { connection in
                            holding.add()
                            try await connection.run("SELECT pg_sleep(4)", logger: logger)
                            finished.add()
                        }
                    }
                }
                while holding.value < 2 { try await Task.sleep(for: .milliseconds(20)) }
                let waited = await #expect(throws: DatabaseUnavailable.self) {
                    try await database.client.leasing(within: .milliseconds(300)) { connection in
                        try await connection.run("INSERT INTO marks VALUES (1)", logger: logger)
                    }
                }
                #expect(waited?.apiError.code == "database_unavailable")
                #expect(waited?.apiError.headers[.retryAfter] != nil)
                // It gave up while both connections were still busy, and never ran.
                #expect(finished.value == 0)
                for task in busy { _ = try await task.value }
                #expect(try await sql("SELECT count(*) FROM marks", on: info)[0][0] == "0")
            }
        }
    }
}

/// A count several tasks add to.
private final class Count: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
