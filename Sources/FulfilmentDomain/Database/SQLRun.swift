import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Every statement the service runs goes through here, so that none can wait forever.
///
/// PostgresNIO (1.33) writes a query to its connection's channel without watching the write:
/// when the pool hands out a connection whose channel closed a moment earlier (PostgreSQL
/// restarting under load), the query is never answered, not even with an error, and
/// `future.get()` does not listen to task cancellation. A request caught that way hung, and
/// the server's graceful shutdown waited on it for ever.
///
/// So PostgresNIO's call is not awaited directly: the caller waits on whichever comes
/// first: its answer, the connection closing (``DatabaseConnectionLost``), or the caller's
/// cancellation. A query given up while its connection is still open has that connection
/// closed, so PostgreSQL rolls back whatever it was doing and the pool never hands out a
/// connection that is still busy. Rows are read to the end inside that task: every query here
/// is bounded (pages, limits), and a half-read stream would hold its connection.
package enum SQLRun {
    package static func rows(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> SQLRows {
        StatementTally.current?.add()
        let answer = FirstOutcome<SQLRows>()
        let watch = ConnectionWatch.shared.watch(connection) { answer.settle(.failure(DatabaseConnectionLost())) }
        defer { ConnectionWatch.shared.unwatch(connection, watch) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.deliver(to: continuation)
                // PostgresNIO's future-based call collects the rows on the connection's event
                // loop: no task of its own and no async row stream, one hand-over fewer per
                // statement than its async call (issue 15).
                connection.query(query, logger: logger).whenComplete { result in
                    answer.settle(result.map { SQLRows($0.rows) })
                }
            }
        } onCancel: {
            if answer.settle(.failure(CancellationError())) { connection.closeWithoutWaiting() }
        }
    }

    /// Runs `query` on a connection of its own from the pool, in PostgreSQL's implicit
    /// transaction, and answers only once that transaction is known to have committed.
    ///
    /// PostgreSQL commits a lone statement after its CommandComplete; a commit that fails (a
    /// deferred constraint trigger, a full disk) sends its ErrorResponse after it, before
    /// ReadyForQuery. PostgresNIO (1.33) has completed the query as a success at CommandComplete
    /// and, when the late error comes, only closes the connection (issue 42): a write answered
    /// `2xx` and then rolled back. So the statement is followed, on the same connection, by
    /// `SELECT 1`, which PostgresNIO sends only once the statement's ReadyForQuery has arrived:
    /// it answers only if that ReadyForQuery came without an error, and fails with the closed
    /// connection otherwise (`CommitUnconfirmed`, `503 database_unavailable`). One more round trip per lone statement, counted
    /// with the request's statements; a transaction's own `COMMIT` reports its failure itself.
    package static func rows(_ query: PostgresQuery, on client: PostgresClient, logger: Logger) async throws -> SQLRows {
        try await client.leasing { connection in
            let rows = try await connection.run(query, logger: logger)
            try await confirmCommitted(on: connection, logger: logger)
            return rows
        }
    }

    /// Succeeds only when the statement before it on `connection` committed (see above).
    package static func confirmCommitted(on connection: PostgresConnection, logger: Logger) async throws {
        do {
            _ = try await connection.run("SELECT 1", logger: logger)
        } catch  where !(error is CancellationError) && (error.isDatabaseUnavailable || connection.isClosed) {
            throw CommitUnconfirmed()
        }
    }
}

/// A lone statement completed but its commit was not confirmed (see `SQLRun.rows(_:on:logger:)`):
/// its commit failed (then nothing of it was kept) or the server went away at that moment (then
/// nobody can say). Never a success: `503 database_unavailable`, as for any request the database
/// dropped, so a client retries what it may retry (an Idempotency-Key, a read) and looks first
/// otherwise; the same answer whichever of the two it was, since the service cannot tell them apart.
package struct CommitUnconfirmed: Error, APIErrorConvertible, CustomStringConvertible {
    package var description: String { "the statement completed but its commit was not confirmed: the connection closed before ReadyForQuery" }
    package var apiError: APIError {
        APIError(
            .serviceUnavailable, "database_unavailable",
            "The store's database did not confirm the change was saved; try again shortly (a change that names an Idempotency-Key is made once).",
            headers: [.retryAfter: "2"])
    }
}

/// Which queries wait on which connection, so that one callback per connection (not one per
/// query, which would pile up on a connection that lives for days) gives them all up when the
/// connection closes.
///
/// Keyed by the connection object, not its `id`: ids count from 1 in every pool, and a process
/// may hold several pools (the tests run many apps at once).
private final class ConnectionWatch: Sendable {
    package static let shared = ConnectionWatch()

    package typealias Token = UInt64
    private struct Entry {
        package weak var connection: PostgresConnection?
        package var waiting: [Token: @Sendable () -> Void] = [:]
    }
    private struct State {
        package var next: Token = 0
        package var entries: [ObjectIdentifier: Entry] = [:]
    }
    private let state = Mutex(State())

    /// Registers `lost`, called at once if `connection` has already closed.
    package func watch(_ connection: PostgresConnection, lost: @escaping @Sendable () -> Void) -> Token {
        let key = ObjectIdentifier(connection)
        let (token, first) = state.withLock { state in
            state.next += 1
            // A connection freed without closing may leave its entry to a new one at its address.
            let first = state.entries[key]?.connection !== connection
            if first { state.entries[key] = Entry(connection: connection) }
            state.entries[key]?.waiting[state.next] = lost
            return (state.next, first)
        }
        if first {
            connection.closeFuture.whenComplete { [self, weak connection] _ in
                let lost = self.state.withLock { state -> [@Sendable () -> Void] in
                    guard let entry = state.entries[key], entry.connection === connection else { return [] }
                    state.entries[key] = nil
                    return Array(entry.waiting.values)
                }
                for resume in lost { resume() }
            }
        }
        return token
    }

    package func unwatch(_ connection: PostgresConnection, _ token: Token) {
        state.withLock { _ = $0.entries[ObjectIdentifier(connection)]?.waiting.removeValue(forKey: token) }
    }
}

extension PostgresConnection {
    /// Closes the connection and goes on: PostgreSQL rolls back whatever it was running, and
    /// the pool drops it instead of lending it out again.
    package func closeWithoutWaiting() {
        let _: EventLoopFuture<Void> = close()
    }
}

/// How many statements one request sent to PostgreSQL, each a round trip: logged with the
/// request (`statements=`), so the benchmarks and tests can hold each command to its budget.
package final class StatementTally: Sendable {
    private let count = Atomic<Int>(0)

    package func add() { count.add(1, ordering: .relaxed) }
    package var value: Int { count.load(ordering: .relaxed) }

    @TaskLocal package static var current: StatementTally?
}

/// The connection a query was running on closed before it answered: PostgreSQL went away.
package struct DatabaseConnectionLost: Error, CustomStringConvertible {
    package var description: String { "the connection to PostgreSQL closed before the query was answered" }
}

/// A statement's rows, read to the end. An `AsyncSequence` of `PostgresRow`, so PostgresNIO's
/// `decode` works on it as on its own row sequence.
package struct SQLRows: AsyncSequence, Sendable {
    package typealias Element = PostgresRow
    package let rows: [PostgresRow]

    package init(_ rows: [PostgresRow]) { self.rows = rows }

    package func collect() -> [PostgresRow] { rows }

    package struct AsyncIterator: AsyncIteratorProtocol {
        package var base: IndexingIterator<[PostgresRow]>
        package mutating func next() async throws -> PostgresRow? { base.next() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: rows.makeIterator()) }
}

/// What can run a query: the pooled client, or one connection inside a transaction (so a read
/// can be shared between the two).
package protocol SQLRunner: Sendable {
    func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows
}

extension PostgresClient: SQLRunner {
    @discardableResult
    package func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows {
        try await SQLRun.rows(query, on: self, logger: logger)
    }
}

extension PostgresClient {
    /// Runs `query`, a statement that writes nothing, without ``SQLRun``'s commit confirmation:
    /// a read has no commit to lose, so its rows are the answer once they have come, and the
    /// round trip of `SELECT 1` (half of a shop page's statements, issue 45) is saved. Only for
    /// SELECTs of tables, views and functions that change nothing; a statement that calls a
    /// function which writes (`set_cart_line`, `take_slot_room`...) goes through ``run(_:logger:)``.
    package func read(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows {
        try await leasing { connection in try await connection.run(query, logger: logger) }
    }
}

extension PostgresConnection: SQLRunner {
    @discardableResult
    package func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows {
        try await SQLRun.rows(query, on: self, logger: logger)
    }
}

extension PostgresClient {
    /// How long a request waits for a connection from the pool: `FULFILMENT_DB_LEASE_WAIT_SECONDS`,
    /// default 5 (1 to 120).
    package static let leaseWait: Duration = .seconds(EnvironmentSetting.integer("FULFILMENT_DB_LEASE_WAIT_SECONDS", clampedTo: 1...120) ?? 5)

    /// `body` on a connection from the pool, waiting for one at most `wait` (issue 42). When
    /// PostgreSQL refuses new connections (`53300` too many connections) or every connection is
    /// busy, PostgresNIO's lease waits for as long as that lasts: a request hung for 28 s. Past
    /// the wait it is `503 database_unavailable` with `Retry-After`, and nothing was run; once
    /// the connection is lent, the statement itself is not timed.
    package func leasing<T: Sendable>(
        within wait: Duration = PostgresClient.leaseWait, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    )
        async throws -> T
    {
        let lent = LeaseFlag()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await self.withConnection { connection in
                    lent.set()
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: wait)
                guard lent.isSet else { throw DatabaseUnavailable() }
                // Lent in time: this watch has nothing more to do than wait to be cancelled.
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let value = result { return value }
            }
            throw CancellationError()
        }
    }
}

/// Whether a connection was lent (`PostgresClient.leasing`).
private final class LeaseFlag: Sendable {
    private let value = Atomic<Bool>(false)
    package func set() { value.store(true, ordering: .relaxed) }
    package var isSet: Bool { value.load(ordering: .relaxed) }
}
