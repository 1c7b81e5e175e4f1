import Foundation

/// What can go wrong with an import (`CatalogueImports`), as the client should hear it.
public enum CatalogueImportError: Error, APIErrorConvertible, Equatable {
    /// No such import at this store, or not one the caller may see (one answer for both).
    case notFound
    /// No such store, or not one the caller may import into.
    case storeNotFound
    /// The preview refused rows: the file must be fixed and uploaded again.
    case refusedRows(Int)
    /// Started already (a second click), or finished.
    case alreadyStarted
    /// Too late to cancel: it has committed.
    case committed
    /// Too late to cancel: it failed, and nothing was written.
    case failed
    case fileTooLarge(limit: Int)
    case fileNameTooLong
    /// The first line names none of the import's columns: not a catalogue CSV (a JSON body,
    /// a spreadsheet saved as something else, a file without its header row).
    case noHeader

    public var apiError: APIError {
        switch self {
        case .notFound:
            APIError(.notFound, "import_not_found", "That import was not found.")
        case .storeNotFound:
            APIError(.notFound, "store_not_found", "That store was not found.")
        case .refusedRows(let count):
            APIError(
                .conflict, "import_refused",
                "\(count == 1 ? "One row was" : "\(count) rows were") refused: fix the file and upload it again. Nothing was written.")
        case .alreadyStarted:
            APIError(.conflict, "import_started", "This import has already been started.")
        case .committed:
            APIError(.conflict, "import_committed", "The import has already been written; it can no longer be cancelled.")
        case .failed:
            APIError(.conflict, "import_failed", "The import has failed; nothing was written.")
        case .fileTooLarge(let limit):
            APIError(
                .contentTooLarge, "payload_too_large",
                "A CSV file to import is at most \(limit / (1024 * 1024)) MiB: split it into smaller files.",
                details: ["limitBytes": .int(limit)])
        case .fileNameTooLong:
            .invalidField("fileName", "A file name is at most 200 characters.")
        case .noHeader:
            .invalidField(
                "body",
                "The file's first line names none of the columns (\(CatalogueImport.columns.joined(separator: ", "))): upload a CSV file whose first line is its header. Nothing was stored."
            )
        }
    }
}
