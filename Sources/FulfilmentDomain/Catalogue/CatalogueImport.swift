import Foundation
import Logging
import PostgresNIO

/// `fulfilment import products --store S file.csv`, and the console's and API's imports
/// (`CatalogueImports`): loads or updates products, with their stock and location at one store,
/// all in one transaction.
///
/// Every row is checked first (fields in Swift, then against the database: aisles, barcodes
/// of other products, stock reserved by open orders); any bad row means nothing is written
/// and every problem is reported with its line number. Good files go through COPY into a
/// temporary table and are upserted from there (products by SKU, stock by store + product).
///
/// A file may carry only some columns (a manager's stock count is `sku,name,price,on_hand`):
/// a column that is absent leaves that field of an existing product or stock row as it is; a
/// column that is present with an empty cell clears the field (barcode, brand, description,
/// category, the location) or sets it to 0 (`min_supply`). `aisle`, `bay` and `shelf` are one
/// location: `bay` or `shelf` need the `aisle` column beside them.
///
/// `price` is the catalogue's price, which every store charges by default; `store_price` is
/// the import's store's own (as its manager sets with `PUT /v1/stores/{storeId}/prices/...`):
/// a cell with an amount sets it, an empty cell leaves the store's price as it is.
///
/// Two kinds of file (`Kind`): the chain's (the CLI's, and the chain's admin's upload), with every
/// column; and a store's (its manager's upload), with only the store's own columns
/// (`storeColumns`), for products the catalogue already has.
public struct CatalogueImport: Sendable {
    public let database: Database

    public init(database: Database) { self.database = database }

    /// The columns, in any order; `sku`, `name`, `price` and `on_hand` are required.
    public static let columns = [
        "sku", "barcode", "name", "brand", "description", "category", "price", "on_hand",
        "min_supply", "aisle", "bay", "shelf", "minimum_age", "store_price",
    ]
    package static let requiredColumns: Set<String> = ["sku", "name", "price", "on_hand"]
    /// The columns a store's manager keeps for their store: the rest are the chain's.
    public static let storeColumns = ["sku", "store_price", "aisle", "bay", "shelf", "on_hand", "min_supply"]

    /// Whose file it is: the chain's (every column; new products allowed) or one store's (only
    /// `storeColumns`, every SKU already in the catalogue).
    public enum Kind: String, Sendable, Equatable {
        case chain, store

        var required: Set<String> { self == .chain ? CatalogueImport.requiredColumns : ["sku"] }
        var allowed: [String] { self == .chain ? CatalogueImport.columns : CatalogueImport.storeColumns }
    }

    public struct Problem: Sendable, Equatable, Codable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The file was refused; nothing was written.
    public struct Refused: Error, Sendable, CustomStringConvertible {
        public var problems: [Problem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    public struct Summary: Sendable, Equatable {
        public var store: String
        public var rows: Int
        public var created: Int
        public var updated: Int
    }

    /// Which optional columns the file has: only those are written to existing rows.
    package struct Columns: Sendable, Equatable {
        package var names: Set<String>
        package func has(_ name: String) -> Bool { names.contains(name) }
        /// Whether the file writes the store's stock row: a chain's file always does (on_hand is
        /// required), a store's when it has a stock column (a file of prices alone does not).
        package var writesStock: Bool { has("on_hand") || has("min_supply") || has("aisle") }
    }

    /// One good row, ready for COPY.
    package struct Row: Sendable, Equatable {
        package var line: Int
        package var sku: String
        /// The catalogue's fields; nil in a store's file, which leaves them as they are.
        package var product: ProductDraft?
        /// nil when the file has no `on_hand` column (left as it is; 0 for a new stock row).
        package var onHand: Int?
        package var minSupply: Int
        package var aisleID: AisleID?
        package var bay: Int?
        package var shelf: String?
        /// nil when the file has no `minimum_age` column (left as it is); `.some(nil)` clears it.
        package var minimumAge: Int?? = nil
        /// The import's store's own price; nil leaves it as it is.
        package var storePrice: Int64? = nil
    }

    /// What the Swift checks made of a file: its good rows, its columns, every bad row.
    package struct Parsed: Sendable {
        package var rows: [Row]
        package var columns: Columns
        package var problems: [Problem]
        /// The file's data rows, good and bad.
        package var lines: Int
    }

    /// Imports `csv` into the store with code or id `store`. Throws `Refused` naming every bad row.
    public func run(csv: String, store storeKey: String, logger: Logger) async throws -> Summary {
        try await database.transaction(logger: logger) { connection in
            guard let store = try await StoreQueries.store(codeOrID: storeKey, on: connection, logger: logger) else {
                throw Refused(problems: [Problem(line: 0, message: "there is no store '\(storeKey)'")])
            }
            let checked = try await Self.check(csv, kind: .chain, store: store.id, currency: store.currency, on: connection, logger: logger)
            guard checked.problems.isEmpty else { throw Refused(problems: checked.problems) }
            try await Self.write(checked, store: store.id, on: connection, logger: logger)
            return Summary(store: store.code, rows: checked.rows.count, created: checked.new, updated: checked.rows.count - checked.new)
        }
    }

    /// A file's bytes as text: UTF-8 only, a leading byte-order mark dropped. A byte that is not
    /// UTF-8 is the numbered line's problem: read as U+FFFD it was imported silently (issue 41).
    public static func text(_ data: Data) throws(Refused) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        var problems: [Problem] = []
        decoding: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
            case .error:
                if problems.last?.line != line { problems.append(Problem(line: line, message: "bytes that are not UTF-8 (save the file as UTF-8)")) }
            case .emptyInput:
                break decoding
            }
        }
        guard problems.isEmpty else { throw Refused(problems: problems) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A header's field as the column it names: spaces around it and its case aside.
    private static func columnName(_ field: String) -> String { field.trimmingCharacters(in: .whitespaces).lowercased() }

    /// Whether the file's first line names at least one column the import knows. A file that
    /// does not is not a catalogue at all, refused before it is kept as an import to preview.
    package static func headerNamesAColumn(_ csv: String) -> Bool {
        let firstLine = csv.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
        // A first line CSV cannot read names no column either (a JSON array's quotes).
        guard let records = try? CSV.parse(String(firstLine)) else { return false }
        guard let header = records.first else { return false }
        return header.fields.map(columnName).contains { columns.contains($0) }
    }

    /// Checks every row in Swift: the good rows and the problems of every bad one. A problem with
    /// the header (an unknown, missing or doubled column) leaves no rows to check.
    package static func parse(_ csv: String, kind: Kind = .chain, currency: String, aisles: [String: AisleID]) -> Parsed {
        func refused(_ problems: [Problem], lines: Int = 0) -> Parsed {
            Parsed(rows: [], columns: Columns(names: []), problems: problems, lines: lines)
        }
        let records: [CSV.Record]
        do { records = try CSV.parse(csv) } catch { return refused([Problem(line: error.line, message: error.message)]) }
        guard let header = records.first else { return refused([Problem(line: 1, message: "the file is empty")]) }
        let names = header.fields.map(columnName)
        var problems: [Problem] = []
        for name in names where !kind.allowed.contains(name) {
            if columns.contains(name) {
                problems.append(
                    Problem(
                        line: header.line,
                        message:
                            "the column '\(name)' is the chain's catalogue, which its admin keeps (a store's file has \(storeColumns.joined(separator: ", ")))"
                    ))
            } else {
                problems.append(
                    Problem(line: header.line, message: "unknown column '\(name.prefix(40))' (columns: \(kind.allowed.joined(separator: ", ")))"))
            }
        }
        for name in kind.required.subtracting(names).sorted() {
            problems.append(Problem(line: header.line, message: "the column '\(name)' is required"))
        }
        if Set(names).count != names.count { problems.append(Problem(line: header.line, message: "a column is named twice")) }
        if !names.contains("aisle"), names.contains("bay") || names.contains("shelf") {
            problems.append(Problem(line: header.line, message: "the columns 'bay' and 'shelf' need the column 'aisle'"))
        }
        guard problems.isEmpty else { return refused(problems, lines: records.count - 1) }
        if records.count == 1 { return refused([Problem(line: header.line, message: "the file has no rows")]) }

        var rows: [Row] = []
        var skus: [String: Int] = [:]
        var barcodes: [String: Int] = [:]
        for record in records.dropFirst() {
            // PostgreSQL stores no NUL in text: said here with its line, not by COPY as a raw error.
            guard !record.fields.contains(where: { $0.unicodeScalars.contains("\u{0}") }) else {
                problems.append(Problem(line: record.line, message: "a NUL byte, which no field may hold"))
                continue
            }
            guard record.fields.count == names.count else {
                problems.append(Problem(line: record.line, message: "\(record.fields.count) fields where the header has \(names.count)"))
                continue
            }
            let values = Dictionary(uniqueKeysWithValues: zip(names, record.fields))
            do throws(CatalogueError) {
                var row = try row(values, kind: kind, line: record.line, currency: currency, aisles: aisles)
                if names.contains("minimum_age") { row.minimumAge = .some(try ProductMinimumAge.parse(values["minimum_age"] ?? "")) }
                row.storePrice = try StorePrice.parse(values["store_price"] ?? "")
                if let first = skus[row.sku] {
                    throw CatalogueError.invalidField("sku", "the SKU '\(row.sku)' is also on line \(first)")
                }
                if let barcode = row.product?.barcode?.digits, let first = barcodes[barcode] {
                    throw CatalogueError.invalidField("barcode", "the barcode \(barcode) is also on line \(first)")
                }
                skus[row.sku] = record.line
                if let barcode = row.product?.barcode?.digits { barcodes[barcode] = record.line }
                rows.append(row)
            } catch {
                problems.append(Problem(line: record.line, message: error.apiError.message))
            }
        }
        return Parsed(rows: rows, columns: Columns(names: Set(names)), problems: problems, lines: records.count - 1)
    }

    private static func row(
        _ values: [String: String], kind: Kind, line: Int, currency: String, aisles: [String: AisleID]
    ) throws(CatalogueError) -> Row {
        func integer(_ column: String, default fallback: Int? = nil) throws(CatalogueError) -> Int? {
            let text = (values[column] ?? "").trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return fallback }
            guard let value = Int(text) else { throw .invalidField(column, "\(column) '\(text.prefix(40))' is not a whole number") }
            return value
        }
        var product: ProductDraft?
        let onHand: Int?
        if kind == .chain {
            guard let price = try integer("price") else { throw .invalidField("price", "price is required (minor units, e.g. 80100)") }
            guard let count = try integer("on_hand") else { throw .invalidField("on_hand", "on_hand is required") }
            product = try ProductDraft(
                sku: values["sku"] ?? "", barcode: values["barcode"], name: values["name"] ?? "", brand: values["brand"],
                description: values["description"], category: values["category"],
                price: try ProductRules.price(amount: Int64(price), currency: currency))
            onHand = count
        } else {
            // A store's file: an empty on_hand cell leaves the count as it is, as an absent column does.
            onHand = try integer("on_hand")
        }
        let sku: String
        if let product { sku = product.sku } else { sku = try ProductRules.sku(values["sku"] ?? "") }
        let level = try StockLevel(onHand: onHand ?? 0, minSupply: try integer("min_supply", default: 0) ?? 0)
        var row = Row(line: line, sku: sku, product: product, onHand: onHand, minSupply: level.minSupply)
        let aisleCode = (values["aisle"] ?? "").trimmingCharacters(in: .whitespaces)
        let bay = try integer("bay")
        let shelf = (values["shelf"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !aisleCode.isEmpty else {
            if bay != nil || !shelf.isEmpty { throw .invalidField("aisle", "a bay or shelf needs an aisle") }
            return row
        }
        let location = try LocationDraft(aisleCode: aisleCode, bay: bay, shelf: shelf)
        guard let aisleID = aisles[location.aisleCode] else { throw .aisleNotFound(location.aisleCode) }
        (row.aisleID, row.bay, row.shelf) = (aisleID, location.bay, location.shelf)
        return row
    }
}
