import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import PostgresNIO
import ServiceLifecycle

/// Whether PostgreSQL answers, as this instance last saw it. When it does not, requests that
/// need it are answered at once with `503 database_unavailable` and `Retry-After` instead of
/// waiting for a connection that will not come (PostgresNIO's pool waits for one forever).
package final class DatabaseHealth: Sendable {
    /// Set while the database is unreachable; every request in flight waits on it.
    private let down = AsyncFlag()
    /// Set while it is reachable: what a request waiting out a failover waits for.
    private let up = AsyncFlag(isSet: true)

    package init() {}

    package var isReachable: Bool { !down.isSet }

    /// Records what a probe saw; true when that is a change. Going down wakes every waiter.
    package func record(reachable: Bool) -> Bool {
        up.set(reachable)
        return down.set(!reachable)
    }

    /// Returns once the database is reachable again (at once if it is), or when cancelled.
    package func untilReachable() async { await up.wait() }

    /// Returns once the database is found unreachable, or at once if the task is cancelled: a
    /// request's watchdog, costing a dictionary entry rather than a timer that wakes a thread.
    package func untilUnreachable() async { await down.wait() }

    /// Requests waiting on ``untilUnreachable()`` (for tests: none is left behind).
    package var waiterCount: Int { down.waiterCount }
}

/// Asks PostgreSQL `SELECT 1` twice a second over one connection of its own (reopened after a
/// failure), and keeps ``DatabaseHealth`` up to date. A probe that fails or takes more than two
/// seconds counts as a miss; two misses in a row mean down (one slow answer on a busy machine
/// is not an outage), one answer means up again.
///
/// With several servers (issue 29) the probe connects as libpq does, with the connection
/// string's `target_session_attrs`, so its connection is to the server the service should use:
/// each new connection tells the `PrimaryRouter` which one that is, and a connection whose
/// server stopped being a primary (a switchover demoted it) counts as a miss and is dropped, so
/// the next finds the new one.
package struct DatabaseProbe: Service {
    package let connection: ConnectionInfo
    package let health: DatabaseHealth
    package let logger: Logger
    package var router: PrimaryRouter? = nil
    package var interval: Duration = .milliseconds(500)

    package init(
        connection: ConnectionInfo, health: DatabaseHealth, logger: Logger, router: PrimaryRouter? = nil, interval: Duration = .milliseconds(500)
    ) {
        self.connection = connection
        self.health = health
        self.logger = logger
        self.router = router
        self.interval = interval
    }

    /// The probe's libpq connection, touched by one probe at a time.
    package final class Link: @unchecked Sendable {
        package var connection: LibPQConnection?
    }

    /// Whether the service needs the primary (it writes): `target_session_attrs` `read-write`
    /// or `primary`, as a multi-host string has by default.
    private var wantsPrimary: Bool { ["read-write", "primary"].contains(connection.sessionTarget) }

    /// The server the probe is connected to is a standby now.
    private struct DemotedPrimary: Error {}

    package func run() async throws {
        let link = Link()
        var options = connection
        options.options["connect_timeout"] = "2"
        let target = options
        await cancelWhenGracefulShutdown {
            var misses = 0
            while !Task.isCancelled {
                let answered = await withTimeout(.seconds(2)) {
                    try await Migrator.offloaded {
                        if link.connection == nil {
                            let opened = try LibPQConnection(target)
                            link.connection = opened
                            if let router, let endpoint = opened.endpoint { router.use(endpoint, logger: logger) }
                        }
                        do {
                            let rows = try link.connection?.execute("SELECT pg_is_in_recovery()")
                            if wantsPrimary, rows?.first?.first == "t" { throw DemotedPrimary() }
                        } catch {
                            link.connection = nil
                            throw error
                        }
                    }
                }
                let answeredInTime = (try? answered.get()) != nil
                if !answeredInTime { link.connection = nil }
                misses = answeredInTime ? 0 : misses + 1
                let reachable = misses < 2
                ServiceMetrics.database(reachable: reachable)
                if health.record(reachable: reachable) {
                    if reachable {
                        logger.notice("database reachable again")
                    } else {
                        logger.error("database unreachable: answering 503 database_unavailable until it is back")
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}

/// Answers `503 database_unavailable` (with `Retry-After`) while the database is down, and
/// gives up on a request still waiting for it when the probe finds it gone: never a 500, never
/// a hang. The health, readiness and contract routes pass straight through.
///
/// With several servers (`failover`, issue 29) a primary may come back within seconds, so a
/// request waits for it instead, up to the failover deadline, and a request that failed on a
/// server going away is run again on the new primary when running it twice cannot do its work
/// twice: `GET` and `HEAD`, and a request with an `Idempotency-Key` (checkout, a collection
/// scan). Any other answers `503 database_unavailable` with `Retry-After`: it may or may not
/// have been done, and only its client can tell.
package struct DatabaseAvailabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    package let health: DatabaseHealth
    package var failover: Failover? = nil

    package init(health: DatabaseHealth, failover: Failover? = nil) {
        self.health = health
        self.failover = failover
    }
    package static var passThrough: Set<String> { ["/healthz", "/readyz", "/openapi.yaml", "/metrics"] }

    /// How a multi-host service waits out a failover.
    package struct Failover: Sendable {
        package var router: PrimaryRouter
        /// How long a request waits for a primary, in all (`FULFILMENT_DB_FAILOVER_DEADLINE`, 15 s).
        package var deadline: Duration
        /// Bodies up to this size are kept to send again; a larger one is run once.
        package static var largestKeptBody: Int { 4 << 20 }

        package init(router: PrimaryRouter, deadline: Duration) {
            self.router = router
            self.deadline = deadline
        }
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.passThrough.contains(request.uri.path) else { return try await next(request, context) }
        guard let failover else {
            guard health.isReachable else { throw DatabaseUnavailable() }
            return try await watched(request, context, next)
        }
        let deadline = ContinuousClock.now + failover.deadline
        var request = request
        var again = Self.safeToRunAgain(request)
        if again {
            let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
            if length <= Failover.largestKeptBody {
                request.body = .init(buffer: try await request.body.collect(upTo: Failover.largestKeptBody))
            } else {
                again = false
            }
        }
        while true {
            guard await waitForDatabase(until: deadline) else { throw DatabaseUnavailable() }
            let changes = failover.router.changes
            do {
                return try await watched(request, context, next, until: (failover.router, changes))
            } catch  where again && error.isFailoverClass && ContinuousClock.now < deadline {
                // Run it again once the probe has found the primary (a new one, or the same back).
                while failover.router.changes == changes && health.isReachable && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                ServiceMetrics.requestRetriedAfterFailover()
            }
        }
    }

    /// Whether the database is reachable, waiting for it until `deadline`.
    private func waitForDatabase(until deadline: ContinuousClock.Instant) async -> Bool {
        guard !health.isReachable else { return true }
        _ = await withTimeout(max(deadline - .now, .zero)) { await health.untilReachable() }
        return health.isReachable
    }

    /// What running twice cannot do twice: a read, or a request under an idempotency key.
    package static func safeToRunAgain(_ request: Request) -> Bool {
        request.method == .get || request.method == .head || request.headers[HTTPField.Name("Idempotency-Key")!] != nil
    }

    /// The handler, beside a watchdog that gives up on it when the probe finds the database gone,
    /// or (with several servers) follows a failover: work waiting on the old primary's pool.
    private func watched(
        _ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response,
        until primary: (router: PrimaryRouter, changes: Int)? = nil
    ) async throws -> Response {
        // The handler runs as a child beside a watchdog; the group outlives neither, so `next`
        // does not really escape, and only one of the two ever runs `next`.
        try await withoutActuallyEscaping(next) { next in
            nonisolated(unsafe) let handler = next
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await handler(request, context) }
                group.addTask {
                    await health.untilUnreachable()
                    return nil
                }
                if let primary {
                    group.addTask {
                        await primary.router.untilChanged(from: primary.changes)
                        return nil
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else { throw DatabaseUnavailable() }
                return response
            }
        }
    }
}

/// PostgreSQL cannot be reached: the client should try again shortly.
package struct DatabaseUnavailable: Error, APIErrorConvertible {
    package var apiError: APIError {
        APIError(
            .serviceUnavailable, "database_unavailable", "The store's database is not reachable right now; try again shortly.",
            headers: [.retryAfter: "2"])
    }
}

extension Error {
    /// What a failover looks like from here (issue 29): the server went away (or was found gone),
    /// a connection failed (SQLSTATE class 08), or a standby refused a write (`25006`).
    package var isFailoverClass: Bool {
        if self is DatabaseUnavailable || self is CommitUnconfirmed || isDatabaseUnavailable { return true }
        if let error = self as? ServerError { return error.underlyingError.isFailoverClass }
        guard let state = sqlState else { return false }
        return state == "25006" || state.hasPrefix("08")
    }

    /// The connection to PostgreSQL broke, or the server is shutting down or starting up.
    package var isDatabaseUnavailable: Bool {
        if self is DatabaseConnectionLost { return true }
        if let error = self as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
            default: break
            }
        }
        return SQLState.serverGoingAway.contains(sqlState ?? "")
    }
}
