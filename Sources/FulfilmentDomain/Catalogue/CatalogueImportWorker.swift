import Foundation
import Logging
import PostgresNIO

/// Runs a started import (`CatalogueImports.start`) in the instance that took the request: one
/// transaction that checks the file again (the catalogue may have changed since the preview),
/// COPYs it in chunks, writes it, and commits only if the import was not cancelled meanwhile.
///
/// Progress goes through another connection, autocommitted, so readers see it while the import's
/// own transaction is open; that transaction touches the import's row only at its very end, with
/// `FOR UPDATE`: a cancel before it wins (rolled back), a cancel after it waits and finds the
/// import committed. If this instance stops, the transaction is rolled back by PostgreSQL and the
/// row, still `running`, reads as failed (`CatalogueImportRecordQueries.find`).
package struct CatalogueImportWorker: Sendable {
    package let database: Database

    /// Stopped because the import was cancelled: rolled back, nothing written.
    private struct Cancelled: Error {}

    package func run(_ id: CatalogueImportID, store: StoreID, logger: Logger) async {
        var tagged = logger
        tagged[metadataKey: "catalogue_import"] = "\(id)"
        let logger = tagged
        let client = database.client
        do {
            let refused = try await database.transaction(logger: logger) { connection -> Int? in
                let worker = try await CatalogueImportRecordQueries.worker(on: connection, logger: logger)
                guard let job = try await CatalogueImportRecordQueries.markRunning(id, worker: worker, on: client, logger: logger) else {
                    throw Cancelled()
                }
                guard let currency = try await CatalogueImportRecordQueries.currency(of: store, on: connection, logger: logger) else {
                    throw CatalogueImportError.storeNotFound
                }
                let checked = try await CatalogueImport.check(
                    job.csv, kind: job.kind, store: store, currency: currency, on: connection, logger: logger
                ) {
                    done in
                    guard try await CatalogueImportRecordQueries.progress(id, done: done, on: client, logger: logger) else { throw Cancelled() }
                }
                guard checked.problems.isEmpty else {
                    // Refused as it runs: the failure is written in this transaction, which then
                    // commits nothing else (the staging table is dropped at commit). Written after a
                    // rollback instead, a reader between the two found the transaction over and the
                    // import still running, and wrote it back as "the service stopped" (issue 46).
                    try await CatalogueImportRecordQueries.fail(
                        id, failure: Self.refusedSentence(checked.problems.count), problems: checked.problems, on: connection, logger: logger)
                    return checked.problems.count
                }
                try await CatalogueImport.write(checked, store: store, on: connection, logger: logger)
                guard try await CatalogueImportRecordQueries.stillRunning(id, on: connection, logger: logger) else { throw Cancelled() }
                try await CatalogueImportRecordQueries.commit(id, checked: checked, on: connection, logger: logger)
                return nil
            }
            if let refused {
                logger.info("catalogue import refused as it ran", metadata: ["rows": "\(refused)"])
                return
            }
            logger.info("catalogue import committed")
        } catch is Cancelled {
            logger.info("catalogue import cancelled")
            try? await CatalogueImportRecordQueries.finishCancelled(id, on: client, logger: logger)
        } catch let refused as CatalogueImport.Refused {
            try? await CatalogueImportRecordQueries.fail(
                id, failure: Self.refusedSentence(refused.problems.count), problems: refused.problems, on: client, logger: logger)
        } catch {
            logger.error("catalogue import failed", metadata: ["error": "\(ErrorLog.describe(error))"])
            try? await CatalogueImportRecordQueries.fail(
                id, failure: "The import stopped with an error; nothing was written. Try again.", problems: [], on: client, logger: logger)
        }
    }

    /// Why an import that passed its preview was refused as it ran.
    private static func refusedSentence(_ count: Int) -> String {
        "The catalogue changed since the preview: \(count == 1 ? "one row is" : "\(count) rows are") now refused. Nothing was written; fix the file and upload it again."
    }
}
