import Foundation
import Logging
import PostgresNIO

/// The SQL of `catalogue_imports` (migration 054). Every statement a request makes binds the store
/// of the path and the caller's `StoreScope` (a manager's own store, the chain's admin every
/// store): another store's import is not found. The worker's statements name their import by id.
package enum CatalogueImportRecordQueries {
    /// The columns ``record(_:)`` reads.
    private static let columns = """
        id, store_id, file_name, scope, status, row_count, new_count, changed_count, unchanged_count, problems::text AS problems,
        examples::text AS examples, failure, progress_done, progress_total, created_at, finished_at
        """

    /// What a started import that no worker runs any more says.
    package static let workerGone = "The service stopped during the import; nothing was written."
    /// How long an import may wait to be started before it is taken for lost.
    package static let queuedFor = "5 minutes"

    /// The store's currency when the scope reaches it.
    package static func currency(of store: StoreID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.run(
            "SELECT currency::text FROM stores WHERE id = \(store.rawValue) AND \(scope, column: "id")", logger: logger)
        for try await currency in rows.decode(String.self) { return currency }
        return nil
    }

    /// The store's currency, for the worker (the import was scoped when it was made).
    package static func currency(of store: StoreID, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.run("SELECT currency::text FROM stores WHERE id = \(store.rawValue)", logger: logger)
        for try await currency in rows.decode(String.self) { return currency }
        return nil
    }

    /// A previewed import: its upload (kept only when it can be started) and what the preview found.
    package static func insert(
        store: StoreID, by user: UserID, fileName: String, csv: String, checked: CatalogueImport.Checked, on client: PostgresClient,
        logger: Logger
    ) async throws -> CatalogueImportRecord {
        let problems = String(decoding: try JSONEncoder().encode(checked.problems), as: UTF8.self)
        let examples = String(decoding: try JSONEncoder().encode(CatalogueImportRecord.examples(checked.classes)), as: UTF8.self)
        let rows = try await client.run(
            """
            INSERT INTO catalogue_imports (store_id, created_by, file_name, csv, scope, row_count, new_count, changed_count,
                                           unchanged_count, problems, examples, progress_total)
            VALUES (\(store.rawValue), \(user.rawValue), \(fileName), \(checked.problems.isEmpty ? csv : ""), \(checked.kind.rawValue),
                    \(checked.parsed.lines), \(checked.new), \(checked.changed), \(checked.unchanged), \(problems)::jsonb,
                    \(examples)::jsonb, \(checked.rows.count))
            RETURNING \(unescaped: columns)
            """, logger: logger)
        guard let record = try await records(rows).first else { throw CatalogueImportError.notFound }
        return record
    }

    /// The import, after writing back as failed one whose worker is gone: a `running` import whose
    /// transaction is no longer in progress (its instance stopped, its backend was ended), or a
    /// `queued` one no worker took up; a cancelled one whose worker is gone is finished. One
    /// statement: the row written back, or else the row as it is.
    package static func find(
        _ id: CatalogueImportID, store: StoreID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> CatalogueImportRecord? {
        let rows = try await client.run(
            """
            WITH lost AS (
                UPDATE catalogue_imports
                   SET status = CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'failed' END,
                       failure = CASE WHEN status = 'cancelled' THEN failure ELSE \(workerGone) END,
                       csv = '', finished_at = now(), updated_at = now()
                 WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) AND \(scope, column: "store_id") AND finished_at IS NULL
                   AND ((status IN ('running', 'cancelled') AND worker_xid IS NOT NULL
                         AND pg_xact_status(worker_xid) IS DISTINCT FROM 'in progress')
                        OR (status = 'queued' AND updated_at < now() - \(queuedFor)::interval))
                RETURNING \(unescaped: columns)
            )
            SELECT * FROM lost
            UNION ALL
            SELECT \(unescaped: columns) FROM catalogue_imports
             WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) AND \(scope, column: "store_id") AND NOT EXISTS (SELECT 1 FROM lost)
            """, logger: logger)
        return try await records(rows).first
    }

    /// Queues a previewed import with no refused row; nil when it is not one (a second click).
    package static func queue(
        _ id: CatalogueImportID, store: StoreID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> CatalogueImportRecord? {
        let rows = try await client.run(
            """
            UPDATE catalogue_imports SET status = 'queued', updated_at = now()
             WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) AND \(scope, column: "store_id")
               AND status = 'previewed' AND problems = '[]'::jsonb
            RETURNING \(unescaped: columns)
            """, logger: logger)
        return try await records(rows).first
    }

    /// Cancels an import not yet finished; nil when there is none to cancel. Behind a worker at its
    /// very end (its `FOR UPDATE`), this waits, then finds the import committed and changes nothing.
    /// A running import is finished by its worker, once it has rolled back.
    package static func cancel(
        _ id: CatalogueImportID, store: StoreID, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> CatalogueImportRecord? {
        let rows = try await client.run(
            """
            UPDATE catalogue_imports
               SET status = 'cancelled', updated_at = now(),
                   finished_at = CASE WHEN status = 'running' THEN NULL ELSE now() END,
                   csv = CASE WHEN status = 'running' THEN csv ELSE '' END
             WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) AND \(scope, column: "store_id")
               AND status IN ('previewed', 'queued', 'running')
            RETURNING \(unescaped: columns)
            """, logger: logger)
        return try await records(rows).first
    }

    // MARK: The worker's

    /// The worker's backend and transaction, from inside the import's transaction.
    package static func worker(on connection: PostgresConnection, logger: Logger) async throws -> (pid: Int32, start: Date, xid: String) {
        let rows = try await connection.run(
            """
            SELECT pg_backend_pid(), a.backend_start, pg_current_xact_id()::text
              FROM pg_stat_activity a WHERE a.pid = pg_backend_pid()
            """, logger: logger)
        for try await (pid, start, xid) in rows.decode((Int32, Date, String).self) { return (pid, start, xid) }
        throw CatalogueImportError.notFound
    }

    /// Marks the import running in `worker`'s transaction (through another connection, so it is
    /// seen at once); its upload and kind, or nil when it is no longer queued (cancelled).
    package static func markRunning(
        _ id: CatalogueImportID, worker: (pid: Int32, start: Date, xid: String), on client: PostgresClient, logger: Logger
    ) async throws -> (csv: String, kind: CatalogueImport.Kind)? {
        let rows = try await client.run(
            """
            UPDATE catalogue_imports
               SET status = 'running', backend_pid = \(worker.pid), backend_start = \(worker.start), worker_xid = \(worker.xid)::xid8,
                   progress_done = 0, updated_at = now()
             WHERE id = \(id.rawValue) AND status IN ('queued', 'running')
            RETURNING csv, scope
            """, logger: logger)
        for try await (csv, scope) in rows.decode((String, String).self) {
            return (csv, CatalogueImport.Kind(rawValue: scope) ?? .store)
        }
        return nil
    }

    /// Progress, seen at once (another connection than the import's); whether it still runs (not cancelled).
    package static func progress(_ id: CatalogueImportID, done: Int, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            UPDATE catalogue_imports SET progress_done = least(\(done), progress_total), updated_at = now()
             WHERE id = \(id.rawValue) AND status = 'running'
            RETURNING 1
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// In the import's transaction, just before it commits: locks the import's row and answers
    /// whether it is still running. A cancel from now on waits for the commit, then finds nothing.
    package static func stillRunning(_ id: CatalogueImportID, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.run(
            "SELECT status FROM catalogue_imports WHERE id = \(id.rawValue) FOR UPDATE", logger: logger)
        for try await status in rows.decode(String.self) { return status == "running" }
        return false
    }

    /// In the import's transaction: committed with it, with what it wrote.
    package static func commit(_ id: CatalogueImportID, checked: CatalogueImport.Checked, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.run(
            """
            UPDATE catalogue_imports
               SET status = 'committed', new_count = \(checked.new), changed_count = \(checked.changed),
                   unchanged_count = \(checked.unchanged), progress_done = progress_total, csv = '', finished_at = now(), updated_at = now()
             WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    /// A cancelled import whose worker has rolled back: finished.
    package static func finishCancelled(_ id: CatalogueImportID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "UPDATE catalogue_imports SET csv = '', finished_at = now(), updated_at = now() WHERE id = \(id.rawValue) AND status = 'cancelled'",
            logger: logger)
    }

    /// A started import that did not commit: why, and the rows refused now (the catalogue changed
    /// since its preview), if that is why.
    package static func fail(
        _ id: CatalogueImportID, failure: String, problems: [CatalogueImport.Problem], on client: some SQLRunner, logger: Logger
    ) async throws {
        let problems = String(decoding: try JSONEncoder().encode(problems), as: UTF8.self)
        _ = try await client.run(
            """
            UPDATE catalogue_imports
               SET status = 'failed', failure = \(String(failure.prefix(1000))), problems = \(problems)::jsonb, csv = '',
                   finished_at = now(), updated_at = now()
             WHERE id = \(id.rawValue) AND status IN ('queued', 'running')
            """, logger: logger)
    }

    private static func records(_ rows: SQLRows) async throws -> [CatalogueImportRecord] {
        var records: [CatalogueImportRecord] = []
        let decoder = JSONDecoder()
        for try await row in rows {
            let r = row.makeRandomAccess()
            records.append(
                CatalogueImportRecord(
                    id: CatalogueImportID(try r["id"].decode(UUID.self)), store: StoreID(try r["store_id"].decode(UUID.self)),
                    fileName: try r["file_name"].decode(String.self),
                    kind: CatalogueImport.Kind(rawValue: try r["scope"].decode(String.self)) ?? .store,
                    status: CatalogueImportRecord.Status(rawValue: try r["status"].decode(String.self)) ?? .failed,
                    rows: try r["row_count"].decode(Int.self), new: try r["new_count"].decode(Int.self),
                    changed: try r["changed_count"].decode(Int.self), unchanged: try r["unchanged_count"].decode(Int.self),
                    problems: try decoder.decode([CatalogueImport.Problem].self, from: Data(try r["problems"].decode(String.self).utf8)),
                    examples: try decoder.decode([CatalogueImportRecord.Example].self, from: Data(try r["examples"].decode(String.self).utf8)),
                    failure: try r["failure"].decode(String?.self), progressDone: try r["progress_done"].decode(Int.self),
                    progressTotal: try r["progress_total"].decode(Int.self), createdAt: try r["created_at"].decode(Date.self),
                    finishedAt: try r["finished_at"].decode(Date?.self)))
        }
        return records
    }
}
