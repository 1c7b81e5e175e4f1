import Foundation

/// A CSV import as it is stored and read (`catalogue_imports`, migration 054): what its preview
/// found, where it is, and how it ended.
package struct CatalogueImportRecord: Sendable, Equatable {
    package enum Status: String, Sendable, Equatable {
        case previewed, queued, running, cancelled, committed, failed

        /// Still to run or running: a reader waits and watches its progress.
        package var isUnderWay: Bool { self == .queued || self == .running }
    }

    /// A row the import would add or change, for the preview's tables.
    package struct Example: Sendable, Equatable, Codable {
        package var line: Int
        package var sku: String
        package var name: String
        /// `new` or `changed`.
        package var kind: String
        /// The fields that change (empty for a new product).
        package var fields: [String]
    }

    /// How many examples of each kind the preview keeps: the counts say how many more there are.
    package static let examplesPerKind = 50

    package var id: CatalogueImportID
    package var store: StoreID
    package var fileName: String
    package var kind: CatalogueImport.Kind
    package var status: Status
    /// The file's data rows, good and refused.
    package var rows: Int
    package var new: Int
    package var changed: Int
    package var unchanged: Int
    /// Every refused row, by line.
    package var problems: [CatalogueImport.Problem]
    package var examples: [Example]
    /// Why a started import failed, when it was not its rows.
    package var failure: String?
    package var progressDone: Int
    package var progressTotal: Int
    package var createdAt: Date
    package var finishedAt: Date?

    /// Whether it may be started: previewed, and no row refused.
    package var canStart: Bool { status == .previewed && problems.isEmpty }
    /// Whether it may still be cancelled.
    package var canCancel: Bool { status == .previewed || status.isUnderWay }

    /// The examples from a checked file: the first of each kind.
    package static func examples(_ classes: [CatalogueImport.Classified]) -> [Example] {
        let new = classes.filter(\.isNew).prefix(examplesPerKind)
        let changed = classes.filter { !$0.isNew && !$0.fields.isEmpty }.prefix(examplesPerKind)
        return (new + changed).map { Example(line: $0.line, sku: $0.sku, name: $0.name, kind: $0.isNew ? "new" : "changed", fields: $0.fields) }
    }
}
