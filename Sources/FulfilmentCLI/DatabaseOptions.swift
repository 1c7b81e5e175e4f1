import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// Which database to use: `--database-url`/`DATABASE_URL` (any libpq form) or the `PG*`
/// variables; with none of them, the embedded cluster under `--data-dir`.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: "PostgreSQL connection string (URI or key=value), as psql accepts. Env: DATABASE_URL. Unset: the embedded cluster.")
    var databaseURL: String?

    @Option(
        name: .customLong("data-dir"), help: "Folder of the embedded PostgreSQL cluster. Env: FULFILMENT_DATA_DIR. Default: ./.fulfilment/postgres")
    var dataDir: String?

    var resolvedDataDir: URL {
        URL(fileURLWithPath: dataDir ?? environment("FULFILMENT_DATA_DIR") ?? ".fulfilment/postgres")
    }

    /// A connection string, or nil for the embedded default. The `PG*` variables count as a choice.
    var explicitConnection: String? {
        if let url = databaseURL ?? environment("DATABASE_URL") { return url }
        let libpqVariables = ["PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"]
        return libpqVariables.contains { environment($0) != nil } ? "" : nil
    }

    /// Resolves the database, starting the embedded cluster when that is the choice, and
    /// stops the cluster after `body` if this call started it. `supervised` (what `serve` asks
    /// for) starts the embedded cluster again should it exit meanwhile (`EmbeddedSupervisor`).
    func withDatabase<T>(logger: Logger, supervised: Bool = false, _ body: (ConnectionInfo) async throws -> T) async throws -> T {
        if let conninfo = explicitConnection {
            let info = try ConnectionInfo.parse(conninfo)
            logger.info("using database", metadata: ["database": "\(info.redacted)"])
            return try await body(info)
        }
        let embedded = try EmbeddedPostgres(dataDirectory: resolvedDataDir, logger: logger)
        let startedHere = try embedded.start()
        logger.info("using embedded PostgreSQL", metadata: ["dir": "\(embedded.dataDirectory.path)"])
        let supervisor = supervised ? try EmbeddedSupervisor.start(embedded, logger: logger) : nil
        // The supervisor first, so that no restart of its own is under way while the cluster stops.
        let finish = {
            supervisor?.stop()
            if startedHere { embedded.stop() }
        }
        do {
            let result = try await body(embedded.connectionInfo)
            finish()
            return result
        } catch {
            finish()
            throw error
        }
    }
}
