import Foundation
import Logging

/// Imports from the console and the API (issue 46): a CSV file is uploaded and previewed (every
/// row checked and classed, nothing written), then started, run by a worker in one transaction
/// (`CatalogueImportWorker`) whose progress is read as it goes, and cancellable until it commits.
///
/// A store's manager imports their store's own columns (`CatalogueImport.storeColumns`); the
/// chain's admin the full file, for the store they choose. The store of the path and the caller's
/// `StoreScope` are bound into every statement: another store's import is not found.
package struct CatalogueImports: Sendable {
    package let database: Database

    /// The largest file: 8 MiB, some 100,000 rows.
    package static let maximumBytes = 8 * 1024 * 1024

    package init(database: Database) { self.database = database }

    /// Checks `file` for `store` in a transaction rolled back and keeps what it found as a new
    /// import, `previewed`; nothing else is written. Refused rows are in the import, not thrown.
    package func preview(_ file: Data, fileName: String?, store: StoreID, by identity: Identity, logger: Logger) async throws
        -> CatalogueImportRecord
    {
        let scope = try StoreScope(managerOrAdmin: identity)
        let kind: CatalogueImport.Kind = scope.isChainWide ? .chain : .store
        let fileName = (fileName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard fileName.count <= 200, !fileName.unicodeScalars.contains("\u{0}") else { throw CatalogueImportError.fileNameTooLong }
        guard file.count <= Self.maximumBytes else { throw CatalogueImportError.fileTooLarge(limit: Self.maximumBytes) }
        let csv: String
        let unreadable: [CatalogueImport.Problem]
        do {
            csv = try CatalogueImport.text(file)
            unreadable = []
        } catch {
            csv = ""
            unreadable = error.problems
        }
        guard !unreadable.isEmpty || CatalogueImport.headerNamesAColumn(csv) else { throw CatalogueImportError.noHeader }
        let checked = try await database.rolledBack(logger: logger) { connection -> CatalogueImport.Checked? in
            guard let currency = try await CatalogueImportRecordQueries.currency(of: store, in: scope, on: connection, logger: logger) else {
                return nil
            }
            guard unreadable.isEmpty else {
                let parsed = CatalogueImport.Parsed(rows: [], columns: .init(names: []), problems: unreadable, lines: 0)
                return CatalogueImport.Checked(kind: kind, parsed: parsed, problems: unreadable, classes: [])
            }
            return try await CatalogueImport.check(csv, kind: kind, store: store, currency: currency, lock: false, on: connection, logger: logger)
        }
        guard let checked else { throw CatalogueImportError.storeNotFound }
        return try await CatalogueImportRecordQueries.insert(
            store: store, by: identity.userID, fileName: fileName, csv: csv, checked: checked, on: database.client, logger: logger)
    }

    /// The import as it is now (one whose worker is gone reads, and is written back, as failed).
    package func find(_ id: CatalogueImportID, store: StoreID, by identity: Identity, logger: Logger) async throws -> CatalogueImportRecord {
        let scope = try StoreScope(managerOrAdmin: identity)
        guard let record = try await CatalogueImportRecordQueries.find(id, store: store, in: scope, on: database.client, logger: logger) else {
            throw CatalogueImportError.notFound
        }
        return record
    }

    /// Queues a previewed import and starts its worker in this instance. Only one of two clicks
    /// queues it (`WHERE status = 'previewed'`); the other is told it has started.
    package func start(_ id: CatalogueImportID, store: StoreID, by identity: Identity, logger: Logger) async throws -> CatalogueImportRecord {
        let scope = try StoreScope(managerOrAdmin: identity)
        guard let queued = try await CatalogueImportRecordQueries.queue(id, store: store, in: scope, on: database.client, logger: logger) else {
            let current = try await find(id, store: store, by: identity, logger: logger)
            guard current.problems.isEmpty else { throw CatalogueImportError.refusedRows(current.problems.count) }
            throw CatalogueImportError.alreadyStarted
        }
        let worker = CatalogueImportWorker(database: database)
        Task.detached { await worker.run(id, store: store, logger: logger) }
        return queued
    }

    /// Cancels an import that has not committed: nothing of it is written. One that has is `409
    /// import_committed`; cancelling a cancelled import again answers it as it is.
    package func cancel(_ id: CatalogueImportID, store: StoreID, by identity: Identity, logger: Logger) async throws -> CatalogueImportRecord {
        let scope = try StoreScope(managerOrAdmin: identity)
        if let cancelled = try await CatalogueImportRecordQueries.cancel(id, store: store, in: scope, on: database.client, logger: logger) {
            return cancelled
        }
        let current = try await find(id, store: store, by: identity, logger: logger)
        switch current.status {
        case .committed: throw CatalogueImportError.committed
        case .failed: throw CatalogueImportError.failed
        default: return current
        }
    }
}
