import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ServiceLifecycle

/// The service's handle on PostgreSQL: a pooled `PostgresNIO` client per server the connection
/// string names (run as a service), the one in use (`PrimaryRouter`), and the connection
/// description they came from.
public struct Database: Sendable {
    /// The pool of the server in use: the primary, as the `DatabaseProbe` last found it.
    public var client: PostgresClient { pools[router.current] }
    public let connection: ConnectionInfo
    /// One pool per server, in the connection string's order. A standby's pool opens nothing
    /// until it becomes the primary.
    package let pools: [PostgresClient]
    package let router: PrimaryRouter

    /// The most connections one instance opens: `FULFILMENT_DB_POOL`, default 40. Several
    /// instances on one PostgreSQL share its `max_connections` between them.
    public static var defaultPoolSize: Int {
        EnvironmentSetting.integer("FULFILMENT_DB_POOL", clampedTo: 2...500) ?? 40
    }

    /// How long a request waits for a primary during a failover before `503 database_unavailable`:
    /// `FULFILMENT_DB_FAILOVER_DEADLINE` seconds, default 15 (issue 29).
    package static var failoverDeadline: Duration {
        .seconds(EnvironmentSetting.integer("FULFILMENT_DB_FAILOVER_DEADLINE", clampedTo: 1...300) ?? 15)
    }

    /// Seconds between keep-alive pings of an idle connection: `FULFILMENT_DB_KEEPALIVE`, default none.
    package static var keepAliveSeconds: Int? {
        EnvironmentSetting.integer("FULFILMENT_DB_KEEPALIVE", clampedTo: 1...3600)
    }

    public init(connection: ConnectionInfo, logger: Logger, poolSize: Int = Database.defaultPoolSize) throws {
        self.connection = connection
        router = PrimaryRouter(endpoints: connection.endpoints)
        pools = try connection.endpoints.map { endpoint in
            try Self.pool(for: connection.only(endpoint), poolSize: poolSize, logger: logger)
        }
    }

    private static func pool(for connection: ConnectionInfo, poolSize: Int, logger: Logger) throws -> PostgresClient {
        var configuration = try Self.configuration(for: connection)
        // A server that does not answer is given up on after libpq's `connect_timeout` (a dead
        // primary's address must not hold a lease for PostgresNIO's default 10 seconds).
        if let seconds = connection.options["connect_timeout"].flatMap({ Int($0) }), seconds > 0 {
            configuration.options.connectTimeout = .seconds(Int64(seconds))
        }
        // One more than asked: the event listener (`EventBus`) holds one connection for as long
        // as the service runs, and requests must still have `poolSize` (with one fewer, eight
        // racing transactions on a pool of eight starved each other).
        configuration.options.maximumConnections = poolSize + 1
        // A connection the service gives up on (a cancelled request) is closed; this makes
        // PostgreSQL notice within a second even mid-statement, stop it and release its locks,
        // instead of finishing work nobody waits for (PostgreSQL 14 and later).
        // And no JIT: every statement here is sized for a request, and where the planner's cost
        // estimate runs high (a hashed subplan over 100,000 products) PostgreSQL spent 130 ms of a
        // 250 ms statement compiling it (issue 45's shop-bench).
        configuration.options.additionalStartupParameters = [("client_connection_check_interval", "1000"), ("jit", "off")]
        // PostgresNIO starts a timer task after every statement for its keep-alive ping of an idle
        // connection, set and cancelled per statement (issue 15). So no ping unless
        // `FULFILMENT_DB_KEEPALIVE` asks for one (seconds; for a NAT or firewall that drops quiet
        // connections): a connection that died while idle fails its next statement with `503
        // database_unavailable` and is replaced, and `DatabaseProbe` watches the server itself.
        // (Its other timer, for closing an idle connection, goes only with a fixed pool,
        // `minimumConnections`, which PostgresNIO 1.33 traps on, a failed precondition, when a
        // lease comes before its `run()` has opened them, as it can at start, the services
        // starting side by side: seen in the tests.)
        configuration.options.keepAliveBehavior = Self.keepAliveSeconds.map { .init(frequency: .seconds($0)) }
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Maps libpq's resolved options onto PostgresNIO's configuration, `sslmode` included.
    package static func configuration(for info: ConnectionInfo) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socket = info.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: info.user, password: info.password, database: info.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch info.sslMode {
            case "disable":
                tls = .disable
            case "allow", "prefer":
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                tls = .prefer(settings)
            case "require":
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                tls = .require(settings)
            default:  // verify-ca, verify-full
                var settings = TLSConfiguration.makeClientConfiguration()
                if let root = info.options["sslrootcert"] {
                    settings.trustRoots = .file(root)
                }
                if info.sslMode == "verify-ca" { settings.certificateVerification = .noHostnameVerification }
                tls = .require(settings)
            }
            configuration = .init(
                host: info.host, port: info.port, username: info.user, password: info.password,
                database: info.database, tls: tls)
        }
        return configuration
    }

    /// How many times a transaction is tried when PostgreSQL aborts it for a reason that a
    /// second try resolves (a deadlock, a serialisation failure): bounded, so a storm ends in a
    /// clear 503 `database_busy` rather than a queue.
    package static let maximumAttempts = 4

    /// Runs `body` in one transaction and rethrows the body's own error (not PostgresNIO's
    /// wrapper), so domain errors thrown inside reach the HTTP error mapping unchanged.
    /// Retried as ``retryingConflicts(logger:retrying:_:)`` says; `body` must therefore do
    /// nothing but database work.
    public func transaction<T: Sendable>(
        logger: Logger, retrying: @Sendable (any Error) -> Bool = { _ in false },
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        // `body` runs only here, one attempt after another, never concurrently with itself.
        nonisolated(unsafe) let body = body
        return try await retryingConflicts(logger: logger, retrying: retrying) {
            try await withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let body = body
                return try await client.leasing { connection in
                    try await Self.inTransaction(on: connection, logger: logger, body)
                }
            }
        }
    }

    /// Runs `attempt` (one transaction, or one statement that is its own transaction) again
    /// when PostgreSQL aborted it with a deadlock or serialisation failure, which roll the
    /// whole of it back: up to ``maximumAttempts`` times with a short random pause. `retrying`
    /// names other errors that mean the same (a unique index that lost a race the next try
    /// will skip).
    package func retryingConflicts<T: Sendable>(
        logger: Logger, retrying: @Sendable (any Error) -> Bool = { _ in false }, _ attempt: () async throws -> T
    ) async throws -> T {
        var tries = 1
        while true {
            do {
                return try await attempt()
            } catch let underlying {
                let transient = underlying.isTransientConflict || retrying(underlying)
                guard transient else { throw underlying }
                guard tries < Self.maximumAttempts else {
                    logger.warning("transaction gave up", metadata: ["sqlstate": "\(underlying.sqlState ?? "-")", "attempts": "\(tries)"])
                    throw DatabaseBusy()
                }
                logger.notice("transaction retried", metadata: ["sqlstate": "\(underlying.sqlState ?? "-")", "attempt": "\(tries)"])
                tries += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 2...20) * tries))
            }
        }
    }
}

extension Database {
    /// BEGIN, `body`, COMMIT, each through ``SQLRun`` so none can wait for ever; PostgresNIO's
    /// own `withTransaction` awaits its ROLLBACK on a connection that may be gone.
    ///
    /// When the body fails, ROLLBACK; if even that cannot be run (the task was cancelled, the
    /// connection broke), the connection is closed, which rolls the transaction back in
    /// PostgreSQL and keeps the pool from lending out a connection still inside it.
    fileprivate static func inTransaction<T: Sendable>(
        on connection: PostgresConnection, logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await connection.run("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            do {
                try await connection.run("ROLLBACK", logger: logger)
            } catch {
                connection.closeWithoutWaiting()
            }
            throw error
        }
        try await connection.run("COMMIT", logger: logger)
        return value
    }
}

extension Database {
    /// Runs `body` on the primary's pool. When the primary changes meanwhile (a failover the probe
    /// followed), `body` is cancelled and ``DatabaseUnavailable`` thrown, for the caller to try
    /// again on the new one: a lease waiting on a dead server's pool would otherwise wait for a
    /// minute or more (issue 29). With one server it is simply `body(client)`.
    package func onPrimary<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        guard pools.count > 1 else { return try await body(client) }
        let (index, changes) = router.snapshot
        let pool = pools[index]
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body(pool) }
            group.addTask {
                await router.untilChanged(from: changes)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw DatabaseUnavailable() }
            return value
        }
    }
}

/// Running the database is running every server's pool.
extension Database: Service {
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            for pool in pools { group.addTask { await pool.run() } }
        }
    }
}

/// PostgreSQL kept aborting a transaction on conflicts with others: the client should retry shortly.
package struct DatabaseBusy: Error, APIErrorConvertible {
    package var apiError: APIError {
        APIError(
            .serviceUnavailable, "database_busy", "The store is very busy right now; try again in a moment.",
            headers: [.retryAfter: "1"])
    }
}
