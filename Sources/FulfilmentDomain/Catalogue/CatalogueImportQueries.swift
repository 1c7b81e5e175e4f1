import Foundation
import Logging
import PostgresNIO

/// The SQL of the CSV import (`CatalogueImport`), all in the import's one transaction: the
/// checked rows go through COPY into a temporary table and are upserted from there (products
/// by SKU, stock by store + product).
package enum CatalogueImportQueries {
    /// The most rows one COPY carries: between chunks the worker tells its progress.
    package static let chunkRows = 500

    /// COPY the checked rows into a temporary table (dropped at commit), `chunkRows` at a time,
    /// telling `progress` how many are in after each chunk.
    package static func copy(
        _ rows: [CatalogueImport.Row], on connection: PostgresConnection, logger: Logger, progress: @Sendable (Int) async throws -> Void = { _ in }
    ) async throws {
        try await connection.run(
            """
            CREATE TEMP TABLE catalogue_import (
                line integer NOT NULL, sku text NOT NULL, barcode text, name text, brand text,
                description text, category text, price bigint, currency text,
                on_hand integer, min_supply integer NOT NULL, aisle_id uuid, bay integer, shelf text,
                minimum_age integer, store_price bigint
            ) ON COMMIT DROP
            """, logger: logger)
        var done = 0
        while done < rows.count {
            let chunk = rows[done..<min(done + chunkRows, rows.count)]
            try await connection.copyFrom(table: "catalogue_import", logger: logger) { writer in
                var buffer = ByteBuffer()
                for row in chunk {
                    let product = row.product
                    let fields: [String?] = [
                        String(row.line), row.sku, product?.barcode?.digits, product?.name, product?.brand, product?.description,
                        product?.category, product.map { String($0.price.amount) }, product?.price.currency, row.onHand.map(String.init),
                        String(row.minSupply), row.aisleID?.description, row.bay.map(String.init), row.shelf,
                        row.minimumAge.flatMap { $0 }.map(String.init), row.storePrice.map(String.init),
                    ]
                    buffer.writeString(fields.map(copyText).joined(separator: "\t") + "\n")
                    if buffer.readableBytes > 64 * 1024 {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
            done += chunk.count
            try await progress(done)
        }
    }

    /// A field in COPY's text format: `\N` is NULL; backslash, tab and line ends are escaped.
    package static func copyText(_ value: String?) -> String {
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
    package static func lockStock(store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM stock
            WHERE store_id = \(store.rawValue)
              AND product_id IN (SELECT p.id FROM catalogue_import i JOIN products p ON p.sku = i.sku)
            ORDER BY product_id
            FOR UPDATE
            """, logger: logger)
    }

    /// Rows whose barcode another product (another SKU) already holds, by line.
    package static func barcodeClashes(
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [(line: Int, barcode: String, sku: String)] {
        let rows = try await connection.run(
            """
            SELECT i.line, i.barcode, p.sku FROM catalogue_import i
            JOIN products p ON p.barcode = i.barcode AND p.sku <> i.sku
            ORDER BY i.line
            """, logger: logger)
        var clashes: [(line: Int, barcode: String, sku: String)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            clashes.append((try r["line"].decode(Int.self), try r["barcode"].decode(String.self), try r["sku"].decode(String.self)))
        }
        return clashes
    }

    /// Rows whose on hand is below what open orders hold at the store, by line.
    package static func belowReserved(store: StoreID, on connection: PostgresConnection, logger: Logger) async throws -> [(line: Int, reserved: Int)]
    {
        let rows = try await connection.run(
            """
            SELECT i.line, s.reserved FROM catalogue_import i
            JOIN products p ON p.sku = i.sku
            JOIN stock s ON s.product_id = p.id AND s.store_id = \(store.rawValue)
            WHERE i.on_hand < s.reserved
            ORDER BY i.line
            """, logger: logger)
        var below: [(line: Int, reserved: Int)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            below.append((try r["line"].decode(Int.self), try r["reserved"].decode(Int.self)))
        }
        return below
    }

    /// Rows of a store's file whose SKU the catalogue does not have, by line.
    package static func unknownSKUs(on connection: PostgresConnection, logger: Logger) async throws -> [(line: Int, sku: String)] {
        let rows = try await connection.run(
            """
            SELECT i.line, i.sku FROM catalogue_import i
            WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.sku = i.sku)
            ORDER BY i.line
            """, logger: logger)
        var unknown: [(line: Int, sku: String)] = []
        for try await (line, sku) in rows.decode((Int, String).self) { unknown.append((line, sku)) }
        return unknown
    }

    /// Each row against what is stored: new (no product with its SKU), or the fields the file
    /// carries that differ (none: unchanged). A store's product not stocked yet is `stock`.
    package static func classify(
        store: StoreID, columns: CatalogueImport.Columns, on connection: PostgresConnection, logger: Logger
    ) async throws -> [CatalogueImport.Classified] {
        let rows = try await connection.run(
            """
            SELECT i.line, i.sku, coalesce(i.name, p.name, '') AS name, p.id IS NULL AS new,
                   array_remove(ARRAY[
                       CASE WHEN \(columns.has("barcode")) AND p.barcode IS DISTINCT FROM i.barcode THEN 'barcode' END,
                       CASE WHEN \(columns.has("name")) AND p.name IS DISTINCT FROM i.name THEN 'name' END,
                       CASE WHEN \(columns.has("brand")) AND p.brand IS DISTINCT FROM i.brand THEN 'brand' END,
                       CASE WHEN \(columns.has("description")) AND p.description IS DISTINCT FROM i.description THEN 'description' END,
                       CASE WHEN \(columns.has("category")) AND p.category IS DISTINCT FROM i.category THEN 'category' END,
                       CASE WHEN \(columns.has("price")) AND p.price_amount IS DISTINCT FROM i.price THEN 'price' END,
                       CASE WHEN \(columns.has("minimum_age")) AND p.minimum_age IS DISTINCT FROM i.minimum_age THEN 'minimum_age' END,
                       CASE WHEN i.store_price IS NOT NULL AND sp.price_amount IS DISTINCT FROM i.store_price THEN 'store_price' END,
                       CASE WHEN \(columns.writesStock) AND s.product_id IS NULL THEN 'stock' END,
                       CASE WHEN i.on_hand IS NOT NULL AND s.on_hand IS DISTINCT FROM i.on_hand THEN 'on_hand' END,
                       CASE WHEN \(columns.has("min_supply")) AND s.min_supply IS DISTINCT FROM i.min_supply THEN 'min_supply' END,
                       CASE WHEN \(columns.has("aisle"))
                             AND (s.aisle_id IS DISTINCT FROM i.aisle_id OR s.bay IS DISTINCT FROM i.bay OR s.shelf IS DISTINCT FROM i.shelf)
                            THEN 'place' END
                   ], NULL) AS fields
            FROM catalogue_import i
            LEFT JOIN products p ON p.sku = i.sku
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(store.rawValue)
            LEFT JOIN store_prices sp ON sp.product_id = p.id AND sp.store_id = \(store.rawValue)
            ORDER BY i.line
            """, logger: logger)
        var classes: [CatalogueImport.Classified] = []
        for try await (line, sku, name, new, fields) in rows.decode((Int, String, String, Bool, [String]).self) {
            classes.append(.init(line: line, sku: sku, name: name, isNew: new, fields: new ? [] : fields))
        }
        return classes
    }

    /// Writes the rows: products by SKU (a chain's file only; a store's leaves the catalogue as
    /// it is), then the store's stock when the file has a stock column, every on-hand figure the
    /// file changes going into the stock ledger as reason `import`. Only the optional columns the
    /// file has are written to existing rows; an on_hand the file leaves empty or out stays.
    package static func upsert(
        store: StoreID, kind: CatalogueImport.Kind, columns: CatalogueImport.Columns, on connection: PostgresConnection, logger: Logger
    ) async throws {
        if kind == .chain {
            try await connection.run(
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
                """, logger: logger)
        }
        guard kind == .chain || columns.writesStock else { return }
        // Every on-hand figure the file changes goes into the stock ledger as reason `import`.
        // The stock rows are locked (`lockStock`), so the figure read for a row the file does
        // not count is the one kept.
        try await connection.run(
            """
            WITH before AS (
                SELECT product_id, on_hand FROM stock WHERE store_id = \(store.rawValue)
            ), written AS (
                INSERT INTO stock (store_id, product_id, on_hand, min_supply, aisle_id, bay, shelf)
                SELECT \(store.rawValue), p.id, coalesce(i.on_hand, b.on_hand, 0), i.min_supply, i.aisle_id, i.bay, i.shelf
                FROM catalogue_import i JOIN products p ON p.sku = i.sku LEFT JOIN before b ON b.product_id = p.id
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
            SELECT \(store.rawValue), w.product_id, w.on_hand - coalesce(b.on_hand, 0), 'import', 'CSV import', w.on_hand
            FROM written w LEFT JOIN before b ON b.product_id = w.product_id
            WHERE w.on_hand <> coalesce(b.on_hand, 0)
            """, logger: logger)
    }
}
