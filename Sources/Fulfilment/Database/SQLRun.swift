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
enum SQLRun {
    static func rows(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> SQLRows {
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

    /// Runs `query` on a connection of its own from the pool.
    static func rows(_ query: PostgresQuery, on client: PostgresClient, logger: Logger) async throws -> SQLRows {
        try await client.withConnection { connection in try await connection.run(query, logger: logger) }
    }
}

/// Which queries wait on which connection, so that one callback per connection (not one per
/// query, which would pile up on a connection that lives for days) gives them all up when the
/// connection closes.
///
/// Keyed by the connection object, not its `id`: ids count from 1 in every pool, and a process
/// may hold several pools (the tests run many apps at once).
private final class ConnectionWatch: Sendable {
    static let shared = ConnectionWatch()

    typealias Token = UInt64
    private struct Entry {
        weak var connection: PostgresConnection?
        var waiting: [Token: @Sendable () -> Void] = [:]
    }
    private struct State {
        var next: Token = 0
        var entries: [ObjectIdentifier: Entry] = [:]
    }
    private let state = Mutex(State())

    /// Registers `lost`, called at once if `connection` has already closed.
    func watch(_ connection: PostgresConnection, lost: @escaping @Sendable () -> Void) -> Token {
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

    func unwatch(_ connection: PostgresConnection, _ token: Token) {
        state.withLock { _ = $0.entries[ObjectIdentifier(connection)]?.waiting.removeValue(forKey: token) }
    }
}

extension PostgresConnection {
    /// Closes the connection and goes on: PostgreSQL rolls back whatever it was running, and
    /// the pool drops it instead of lending it out again.
    func closeWithoutWaiting() {
        let _: EventLoopFuture<Void> = close()
    }
}

/// How many statements one request sent to PostgreSQL, each a round trip: logged with the
/// request (`statements=`), so the benchmarks and tests can hold each command to its budget.
final class StatementTally: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }

    @TaskLocal static var current: StatementTally?
}

/// The connection a query was running on closed before it answered: PostgreSQL went away.
struct DatabaseConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection to PostgreSQL closed before the query was answered" }
}

/// A statement's rows, read to the end. An `AsyncSequence` of `PostgresRow`, so PostgresNIO's
/// `decode` works on it as on its own row sequence.
struct SQLRows: AsyncSequence, Sendable {
    typealias Element = PostgresRow
    let rows: [PostgresRow]

    init(_ rows: [PostgresRow]) { self.rows = rows }

    func collect() -> [PostgresRow] { rows }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[PostgresRow]>
        mutating func next() async throws -> PostgresRow? { base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: rows.makeIterator()) }
}

/// What can run a query: the pooled client, or one connection inside a transaction (so a read
/// can be shared between the two).
protocol SQLRunner: Sendable {
    func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows
}

extension PostgresClient: SQLRunner {
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows {
        try await SQLRun.rows(query, on: self, logger: logger)
    }
}

extension PostgresConnection: SQLRunner {
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> SQLRows {
        try await SQLRun.rows(query, on: self, logger: logger)
    }
}
