import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

/// Whether PostgreSQL answers, as this instance last saw it. When it does not, requests that
/// need it are answered at once with `503 database_unavailable` and `Retry-After` instead of
/// waiting for a connection that will not come (PostgresNIO's pool waits for one forever).
final class DatabaseHealth: Sendable {
    /// Set while the database is unreachable; every request in flight waits on it.
    private let down = AsyncFlag()

    var isReachable: Bool { !down.isSet }

    /// Records what a probe saw; true when that is a change. Going down wakes every waiter.
    func record(reachable: Bool) -> Bool { down.set(!reachable) }

    /// Returns once the database is found unreachable, or at once if the task is cancelled: a
    /// request's watchdog, costing a dictionary entry rather than a timer that wakes a thread.
    func untilUnreachable() async { await down.wait() }

    /// Requests waiting on ``untilUnreachable()`` (for tests: none is left behind).
    var waiterCount: Int { down.waiterCount }
}

/// Asks PostgreSQL `SELECT 1` twice a second over one connection of its own (reopened after a
/// failure), and keeps ``DatabaseHealth`` up to date. A probe that fails or takes more than two
/// seconds counts as a miss; two misses in a row mean down (one slow answer on a busy machine
/// is not an outage), one answer means up again.
struct DatabaseProbe: Service {
    let connection: ConnectionInfo
    let health: DatabaseHealth
    let logger: Logger
    var interval: Duration = .milliseconds(500)

    /// The probe's libpq connection, touched by one probe at a time.
    final class Link: @unchecked Sendable {
        var connection: LibPQConnection?
    }

    func run() async throws {
        let link = Link()
        var options = connection
        options.options["connect_timeout"] = "2"
        let target = options
        await cancelWhenGracefulShutdown {
            var misses = 0
            while !Task.isCancelled {
                let answered = await withTimeout(.seconds(2)) {
                    try await Migrator.offloaded {
                        if link.connection == nil { link.connection = try LibPQConnection(target) }
                        do {
                            try link.connection?.execute("SELECT 1")
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
struct DatabaseAvailabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let health: DatabaseHealth
    static var passThrough: Set<String> { ["/healthz", "/readyz", "/openapi.yaml", "/metrics"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.passThrough.contains(request.uri.path) else { return try await next(request, context) }
        guard health.isReachable else { throw DatabaseUnavailable() }
        // The handler runs as a child beside a watchdog; the group outlives neither, so `next`
        // does not really escape, and only one of the two ever runs `next`.
        return try await withoutActuallyEscaping(next) { next in
            nonisolated(unsafe) let handler = next
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await handler(request, context) }
                group.addTask {
                    await health.untilUnreachable()
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else { throw DatabaseUnavailable() }
                return response
            }
        }
    }
}

/// PostgreSQL cannot be reached: the client should try again shortly.
struct DatabaseUnavailable: Error, APIErrorConvertible {
    var apiError: APIError {
        APIError(
            .serviceUnavailable, "database_unavailable", "The store's database is not reachable right now; try again shortly.",
            headers: [.retryAfter: "2"])
    }
}

extension Error {
    /// The connection to PostgreSQL broke, or the server is shutting down or starting up.
    var isDatabaseUnavailable: Bool {
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
