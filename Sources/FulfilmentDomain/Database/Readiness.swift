import Logging

/// Whether this instance should be sent requests: the database answers within two seconds and
/// every migration this binary knows is recorded as applied. A load balancer should not route
/// here otherwise.
package struct Readiness: Sendable {
    package let database: Database
    package let migrations: [Migration]

    package enum Verdict: Sendable, Equatable {
        case ready
        /// The database answers; this many migrations are not applied yet.
        case migrationsPending(Int)
        /// No answer within the time, or an error.
        case databaseUnreachable
    }

    package func check() async -> Verdict {
        let expected = Set(migrations.map(\.version))
        let client = database.client
        let applied = await withTimeout(.seconds(2)) {
            try await ReadinessQueries.appliedMigrations(on: client, logger: Logger(label: "fulfilment.readiness"))
        }
        switch applied {
        case .success(let applied) where expected.isSubset(of: applied): return .ready
        case .success(let applied): return .migrationsPending(expected.subtracting(applied).count)
        case .failure: return .databaseUnreachable
        }
    }
}
