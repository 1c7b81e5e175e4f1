import Foundation
import Logging
import PostgresNIO
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// PostgreSQL aborts one of two transactions that lock each other's rows; the service runs the
/// loser again instead of answering 500 (issue 10, item 8).
@Suite("Transactions: deadlocks and serialisation failures are retried, a bounded number of times")
struct TransactionRetryTests {
    /// Holds each transaction's first attempt until both hold their first row, so they deadlock.
    actor Rendezvous {
        private var arrived = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var attempts: [Int] = [0, 0]

        func attempt(_ racer: Int) -> Int {
            attempts[racer] += 1
            return attempts[racer]
        }

        func meet() async {
            arrived += 1
            if arrived == 2 {
                for continuation in waiting { continuation.resume() }
                waiting.removeAll()
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    @Test("two transactions that lock two rows in opposite orders both commit; PostgreSQL's deadlock victim ran twice")
    func deadlockIsRetried() async throws {
        try await withTestDatabase { info in
            _ = try await sql("CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)", on: info)
            _ = try await sql("INSERT INTO counters VALUES (1, 0), (2, 0)", on: info)
            let database = try Database(connection: info, logger: Logger(label: "test"))
            let rendezvous = Rendezvous()
            try await withRunning(database) {
                try await withThrowingTaskGroup(of: Void.self) { racers in
                    for racer in 0..<2 {
                        let (first, second) = racer == 0 ? (1, 2) : (2, 1)
                        racers.addTask {
                            try await database.transaction(logger: Logger(label: "test")) { connection in
                                let attempt = await rendezvous.attempt(racer)
                                try await connection.run("UPDATE counters SET n = n + 1 WHERE id = \(first)", logger: Logger(label: "test"))
                                if attempt == 1 { await rendezvous.meet() }
                                try await connection.run("UPDATE counters SET n = n + 1 WHERE id = \(second)", logger: Logger(label: "test"))
                            }
                        }
                    }
                    try await racers.waitForAll()
                }
            }
            // Each transaction's work landed exactly once.
            #expect(try await sql("SELECT n FROM counters ORDER BY id", on: info) == [["2"], ["2"]])
            #expect(await rendezvous.attempts.sorted() == [1, 2])
        }
    }

    @Test("a conflict that never clears ends in 503 database_busy with Retry-After, not a 500")
    func givesUpClearly() async throws {
        try await withTestDatabase { info in
            let database = try Database(connection: info, logger: Logger(label: "test"))
            let tries = Counter()
            try await withRunning(database) {
                do {
                    try await database.transaction(logger: Logger(label: "test"), retrying: { $0 is Conflict }) { _ in
                        await tries.increment()
                        throw Conflict()
                    }
                    Issue.record("the transaction should have given up")
                } catch let busy as DatabaseBusy {
                    #expect(busy.apiError.status == .serviceUnavailable)
                    #expect(busy.apiError.code == "database_busy")
                    #expect(busy.apiError.headers[.retryAfter] == "1")
                }
            }
            #expect(await tries.value == Database.maximumAttempts)
        }
    }

    struct Conflict: Error {}

    actor Counter {
        private(set) var value = 0
        func increment() { value += 1 }
    }
}
