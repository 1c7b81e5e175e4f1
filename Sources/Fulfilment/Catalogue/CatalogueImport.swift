import Foundation
import Logging
import PostgresNIO

/// `fulfilment import products --store S file.csv`: loads or updates products, with their
/// stock and location at one store, all in one transaction.
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
public enum CatalogueImport {
    /// The columns, in any order; `sku`, `name`, `price` and `on_hand` are required.
    public static let columns = ["sku", "barcode", "name", "brand", "description", "category", "price", "on_hand",
                                 "min_supply", "aisle", "bay", "shelf", "minimum_age"]
    static let requiredColumns: Set<String> = ["sku", "name", "price", "on_hand"]

    public struct Problem: Sendable, Equatable, CustomStringConvertible {
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
    struct Columns: Sendable, Equatable {
        var names: Set<String>
        func has(_ name: String) -> Bool { names.contains(name) }
    }

    /// One good row, ready for COPY.
    struct Row: Sendable, Equatable {
        var line: Int
        var product: ProductDraft
        var level: StockLevel
        var aisleID: UUID?
        var bay: Int?
        var shelf: String?
        /// nil when the file has no `minimum_age` column (left as it is); `.some(nil)` clears it.
        var minimumAge: Int?? = nil
    }

    /// Imports `csv` into the store with code or id `store`. Throws `Refused` naming every bad row.
    public static func run(csv: String, store storeKey: String, database: Database, logger: Logger) async throws -> Summary {
        try await database.transaction(logger: logger) { connection in
            guard let store = try await StoreQueries.store(codeOrID: storeKey, on: connection, logger: logger) else {
                throw Refused(problems: [Problem(line: 0, message: "there is no store '\(storeKey)'")])
            }
            var aisles: [String: UUID] = [:]
            for try await (code, id) in try await connection.run(
                "SELECT code, id FROM aisles WHERE store_id = \(store.id)", logger: logger
            ).decode((String, UUID).self) {
                aisles[code] = id
            }
            let (rows, columns) = try parse(csv, currency: store.currency, aisles: aisles)
            try await copy(rows, on: connection, logger: logger)
            try await lockStock(store: store.id, on: connection, logger: logger)
            try await checkAgainstDatabase(store: store.id, on: connection, logger: logger)
            let summary = try await upsert(store: store, rows: rows.count, columns: columns, on: connection, logger: logger)
            let ages = rows.compactMap { row in row.minimumAge.map { (row.product.sku, $0) } }
            try await MinimumAgeQueries.setChainWide(ages, on: connection, logger: logger)
            return summary
        }
    }

    /// Checks every row in Swift; the problems of all bad rows, or the good rows.
    static func parse(_ csv: String, currency: String, aisles: [String: UUID]) throws(Refused) -> ([Row], Columns) {
        let records: [CSV.Record]
        do { records = try CSV.parse(csv) } catch { throw Refused(problems: [Problem(line: error.line, message: error.message)]) }
        guard let header = records.first else { throw Refused(problems: [Problem(line: 1, message: "the file is empty")]) }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var problems: [Problem] = []
        for name in names where !columns.contains(name) {
            problems.append(Problem(line: header.line, message: "unknown column '\(name)' (columns: \(columns.joined(separator: ", ")))"))
        }
        for name in requiredColumns.subtracting(names).sorted() {
            problems.append(Problem(line: header.line, message: "the column '\(name)' is required"))
        }
        if Set(names).count != names.count { problems.append(Problem(line: header.line, message: "a column is named twice")) }
        if !names.contains("aisle"), names.contains("bay") || names.contains("shelf") {
            problems.append(Problem(line: header.line, message: "the columns 'bay' and 'shelf' need the column 'aisle'"))
        }
        guard problems.isEmpty else { throw Refused(problems: problems) }
        if records.count == 1 { throw Refused(problems: [Problem(line: header.line, message: "the file has no rows")]) }

        var rows: [Row] = []
        var skus: [String: Int] = [:]
        var barcodes: [String: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == names.count else {
                problems.append(Problem(line: record.line, message: "\(record.fields.count) fields where the header has \(names.count)"))
                continue
            }
            let values = Dictionary(uniqueKeysWithValues: zip(names, record.fields))
            do throws(CatalogueError) {
                var row = try row(values, line: record.line, currency: currency, aisles: aisles)
                if names.contains("minimum_age") { row.minimumAge = .some(try MinimumAge.parse(values["minimum_age"] ?? "")) }
                if let first = skus[row.product.sku] {
                    throw CatalogueError.invalidField("sku", "the SKU '\(row.product.sku)' is also on line \(first)")
                }
                if let barcode = row.product.barcode?.digits, let first = barcodes[barcode] {
                    throw CatalogueError.invalidField("barcode", "the barcode \(barcode) is also on line \(first)")
                }
                skus[row.product.sku] = record.line
                if let barcode = row.product.barcode?.digits { barcodes[barcode] = record.line }
                rows.append(row)
            } catch {
                problems.append(Problem(line: record.line, message: error.apiError.message))
            }
        }
        guard problems.isEmpty else { throw Refused(problems: problems) }
        return (rows, Columns(names: Set(names)))
    }

    private static func row(
        _ values: [String: String], line: Int, currency: String, aisles: [String: UUID]
    ) throws(CatalogueError) -> Row {
        func integer(_ column: String, default fallback: Int? = nil) throws(CatalogueError) -> Int? {
            let text = (values[column] ?? "").trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return fallback }
            guard let value = Int(text) else { throw .invalidField(column, "\(column) '\(text)' is not a whole number") }
            return value
        }
        guard let price = try integer("price") else { throw .invalidField("price", "price is required (minor units, e.g. 80100)") }
        guard let onHand = try integer("on_hand") else { throw .invalidField("on_hand", "on_hand is required") }
        let product = try ProductDraft(
            sku: values["sku"] ?? "", barcode: values["barcode"], name: values["name"] ?? "", brand: values["brand"],
            description: values["description"], category: values["category"],
            price: try ProductRules.price(amount: Int64(price), currency: currency))
        let level = try StockLevel(onHand: onHand, minSupply: try integer("min_supply", default: 0) ?? 0)
        let aisleCode = (values["aisle"] ?? "").trimmingCharacters(in: .whitespaces)
        let bay = try integer("bay")
        let shelf = (values["shelf"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !aisleCode.isEmpty else {
            if bay != nil || !shelf.isEmpty { throw .invalidField("aisle", "a bay or shelf needs an aisle") }
            return Row(line: line, product: product, level: level, aisleID: nil, bay: nil, shelf: nil)
        }
        let location = try LocationDraft(aisleCode: aisleCode, bay: bay, shelf: shelf)
        guard let aisleID = aisles[location.aisleCode] else { throw .aisleNotFound(location.aisleCode) }
        return Row(line: line, product: product, level: level, aisleID: aisleID, bay: location.bay, shelf: location.shelf)
    }

    /// COPY the checked rows into a temporary table (dropped at commit).
    private static func copy(_ rows: [Row], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            CREATE TEMP TABLE catalogue_import (
                line integer NOT NULL, sku text NOT NULL, barcode text, name text NOT NULL, brand text NOT NULL,
                description text NOT NULL, category text NOT NULL, price bigint NOT NULL, currency text NOT NULL,
                on_hand integer NOT NULL, min_supply integer NOT NULL, aisle_id uuid, bay integer, shelf text
            ) ON COMMIT DROP
            """, logger: logger)
        try await connection.copyFrom(table: "catalogue_import", logger: logger) { writer in
            var buffer = ByteBuffer()
            for row in rows {
                let fields: [String?] = [
                    String(row.line), row.product.sku, row.product.barcode?.digits, row.product.name, row.product.brand,
                    row.product.description, row.product.category, String(row.product.price.amount), row.product.price.currency,
                    String(row.level.onHand), String(row.level.minSupply), row.aisleID?.uuidString, row.bay.map(String.init), row.shelf,
                ]
                buffer.writeString(fields.map(copyText).joined(separator: "\t") + "\n")
                if buffer.readableBytes > 64 * 1024 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
    }

    /// A field in COPY's text format: `\N` is NULL; backslash, tab and line ends are escaped.
    static func copyText(_ value: String?) -> String {
        guard let value else { return "\\N" }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Every stock row the import will change, locked in product-id order: the one lock order
    /// checkout, cancellation and collection use, so an import during trading never deadlocks.
    private static func lockStock(store storeID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM stock
            WHERE store_id = \(storeID)
              AND product_id IN (SELECT p.id FROM catalogue_import i JOIN products p ON p.sku = i.sku)
            ORDER BY product_id
            FOR UPDATE
            """, logger: logger)
    }

    /// What only the database knows: barcodes other products hold, stock held by open orders.
    private static func checkAgainstDatabase(store storeID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        var problems: [Problem] = []
        let barcodeClashes = try await connection.run(
            """
            SELECT i.line, i.barcode, p.sku FROM catalogue_import i
            JOIN products p ON p.barcode = i.barcode AND p.sku <> i.sku
            ORDER BY i.line
            """, logger: logger)
        for try await (line, barcode, sku) in barcodeClashes.decode((Int, String, String).self) {
            problems.append(Problem(line: line, message: "the barcode \(barcode) belongs to product \(sku)"))
        }
        let belowReserved = try await connection.run(
            """
            SELECT i.line, s.reserved FROM catalogue_import i
            JOIN products p ON p.sku = i.sku
            JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID)
            WHERE i.on_hand < s.reserved
            ORDER BY i.line
            """, logger: logger)
        for try await (line, reserved) in belowReserved.decode((Int, Int).self) {
            problems.append(Problem(line: line, message: "on_hand is less than the \(reserved) reserved by open orders"))
        }
        guard problems.isEmpty else { throw Refused(problems: problems.sorted { $0.line < $1.line }) }
    }

    private static func upsert(
        store: StoreRecord, rows: Int, columns: Columns, on connection: PostgresConnection, logger: Logger
    ) async throws -> Summary {
        var created = 0
        let products = try await connection.run(
            """
            INSERT INTO products (sku, barcode, name, brand, description, category, price_amount, currency)
            SELECT sku, barcode, name, brand, description, category, price, currency FROM catalogue_import ORDER BY sku
            ON CONFLICT (sku) DO UPDATE
            SET barcode = CASE WHEN \(columns.has("barcode")) THEN EXCLUDED.barcode ELSE products.barcode END,
                name = EXCLUDED.name,
                brand = CASE WHEN \(columns.has("brand")) THEN EXCLUDED.brand ELSE products.brand END,
                description = CASE WHEN \(columns.has("description")) THEN EXCLUDED.description ELSE products.description END,
                category = CASE WHEN \(columns.has("category")) THEN EXCLUDED.category ELSE products.category END,
                price_amount = EXCLUDED.price_amount, currency = EXCLUDED.currency, updated_at = now()
            RETURNING (xmax = 0) AS inserted
            """, logger: logger)
        for try await inserted in products.decode(Bool.self) where inserted { created += 1 }
        // Every on-hand figure the file changes goes into the stock ledger as reason `import`.
        try await connection.run(
            """
            WITH before AS (
                SELECT product_id, on_hand FROM stock WHERE store_id = \(store.id)
            ), written AS (
                INSERT INTO stock (store_id, product_id, on_hand, min_supply, aisle_id, bay, shelf)
                SELECT \(store.id), p.id, i.on_hand, i.min_supply, i.aisle_id, i.bay, i.shelf
                FROM catalogue_import i JOIN products p ON p.sku = i.sku
                ORDER BY p.id
                ON CONFLICT (store_id, product_id) DO UPDATE
                SET on_hand = EXCLUDED.on_hand,
                    min_supply = CASE WHEN \(columns.has("min_supply")) THEN EXCLUDED.min_supply ELSE stock.min_supply END,
                    aisle_id = CASE WHEN \(columns.has("aisle")) THEN EXCLUDED.aisle_id ELSE stock.aisle_id END,
                    bay = CASE WHEN \(columns.has("aisle")) THEN EXCLUDED.bay ELSE stock.bay END,
                    shelf = CASE WHEN \(columns.has("aisle")) THEN EXCLUDED.shelf ELSE stock.shelf END,
                    updated_at = now()
                RETURNING product_id, on_hand
            )
            INSERT INTO stock_movements (store_id, product_id, delta, reason, note, on_hand_after)
            SELECT \(store.id), w.product_id, w.on_hand - coalesce(b.on_hand, 0), 'import', 'CSV import', w.on_hand
            FROM written w LEFT JOIN before b ON b.product_id = w.product_id
            WHERE w.on_hand <> coalesce(b.on_hand, 0)
            """, logger: logger)
        return Summary(store: store.code, rows: rows, created: created, updated: rows - created)
    }
}
