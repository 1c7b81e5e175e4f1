import Logging
import PostgresNIO

/// The SQL of the readiness check.
package enum ReadinessQueries {
    /// The versions of every migration recorded as applied.
    package static func appliedMigrations(on client: PostgresClient, logger: Logger) async throws -> Set<Int> {
        var applied = Set<Int>()
        let rows = try await client.run("SELECT version FROM schema_migrations", logger: logger)
        for try await version in rows.decode(Int.self) { applied.insert(version) }
        return applied
    }
}
