import Foundation
import Logging
import PostgresNIO

/// The one way a file is judged and written, whoever imports it: the CLI (`run`), the preview
/// (in a transaction rolled back) and the worker (in the import's own transaction) all call
/// `check`, then, when it found no problem, `write`.
extension CatalogueImport {
    /// A good row as it compares with what is stored.
    package struct Classified: Sendable, Equatable {
        package var line: Int
        package var sku: String
        package var name: String
        /// Its SKU is not in the catalogue yet.
        package var isNew: Bool
        /// The fields the file carries that differ from what is stored (empty: unchanged).
        package var fields: [String]
    }

    /// A file checked in Swift and against the database, its good rows in the temporary table.
    package struct Checked: Sendable {
        package var kind: Kind
        package var parsed: Parsed
        /// Every bad row, by line.
        package var problems: [Problem]
        /// Every good row that is not refused, by line.
        package var classes: [Classified]

        package var rows: [Row] { parsed.rows }
        package var new: Int { classes.count(where: { $0.isNew }) }
        package var changed: Int { classes.count(where: { !$0.isNew && !$0.fields.isEmpty }) }
        package var unchanged: Int { classes.count(where: { !$0.isNew && $0.fields.isEmpty }) }
    }

    /// Checks `csv` for `store` inside the caller's transaction on `connection`: every row in
    /// Swift, the good ones COPYed into the temporary table (`progress` told of each chunk), the
    /// stock rows they change locked (`lock`: the writers do, the preview need not), then what
    /// only the database knows, and each good row classed against what is stored.
    package static func check(
        _ csv: String, kind: Kind, store: StoreID, currency: String, lock: Bool = true, on connection: PostgresConnection, logger: Logger,
        progress: @Sendable (Int) async throws -> Void = { _ in }
    ) async throws -> Checked {
        let aisles = try await StoreQueries.aisleIDs(store: store, on: connection, logger: logger)
        let parsed = parse(csv, kind: kind, currency: currency, aisles: aisles)
        guard !parsed.rows.isEmpty else { return Checked(kind: kind, parsed: parsed, problems: parsed.problems, classes: []) }
        try await CatalogueImportQueries.copy(parsed.rows, on: connection, logger: logger, progress: progress)
        if lock { try await CatalogueImportQueries.lockStock(store: store, on: connection, logger: logger) }
        var problems = parsed.problems
        for clash in try await CatalogueImportQueries.barcodeClashes(on: connection, logger: logger) {
            problems.append(Problem(line: clash.line, message: "the barcode \(clash.barcode) belongs to product \(clash.sku)"))
        }
        for row in try await CatalogueImportQueries.belowReserved(store: store, on: connection, logger: logger) {
            problems.append(Problem(line: row.line, message: "on_hand is less than the \(row.reserved) reserved by open orders"))
        }
        if kind == .store {
            // A store's file prices and places the chain's products; it makes none.
            for row in try await CatalogueImportQueries.unknownSKUs(on: connection, logger: logger) {
                problems.append(Problem(line: row.line, message: "no product with SKU \(row.sku): the chain's admin adds products"))
            }
        }
        problems.sort { $0.line < $1.line }
        let refused = Set(problems.map(\.line))
        let classes = try await CatalogueImportQueries.classify(store: store, columns: parsed.columns, on: connection, logger: logger)
            .filter { !refused.contains($0.line) }
        return Checked(kind: kind, parsed: parsed, problems: problems, classes: classes)
    }

    /// Writes a checked file with no problems: products by SKU (a chain's file), the store's stock
    /// and places, the chain's minimum ages and the store's own prices.
    package static func write(_ checked: Checked, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        guard checked.problems.isEmpty else { throw Refused(problems: checked.problems) }
        try await CatalogueImportQueries.upsert(store: store, kind: checked.kind, columns: checked.parsed.columns, on: connection, logger: logger)
        let ages = checked.rows.compactMap { row in row.minimumAge.map { (row.sku, $0) } }
        try await MinimumAgeQueries.setChainWide(ages, on: connection, logger: logger)
        let prices = checked.rows.compactMap { row in row.storePrice.map { (row.sku, $0) } }
        try await PriceQueries.set(prices, store: store, on: connection, logger: logger)
    }
}
