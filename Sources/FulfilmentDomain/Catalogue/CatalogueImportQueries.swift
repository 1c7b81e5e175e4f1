import Foundation
import Logging
import PostgresNIO

/// The SQL of the CSV import (`CatalogueImport`), all in the import's one transaction: the
/// checked rows go through COPY into a temporary table and are upserted from there (products
/// by SKU, stock by store + product).
package enum CatalogueImportQueries {
    /// COPY the checked rows into a temporary table (dropped at commit).
    package static func copy(_ rows: [CatalogueImport.Row], on connection: PostgresConnection, logger: Logger) async throws {
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
                    String(row.level.onHand), String(row.level.minSupply), row.aisleID?.description, row.bay.map(String.init), row.shelf,
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

    /// Writes the rows: products by SKU, then the store's stock, every on-hand figure the file
    /// changes going into the stock ledger as reason `import`. Only the optional columns the
    /// file has are written to existing rows. Answers how many products were new.
    package static func upsert(
        store: StoreID, columns: CatalogueImport.Columns, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
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
                SELECT product_id, on_hand FROM stock WHERE store_id = \(store.rawValue)
            ), written AS (
                INSERT INTO stock (store_id, product_id, on_hand, min_supply, aisle_id, bay, shelf)
                SELECT \(store.rawValue), p.id, i.on_hand, i.min_supply, i.aisle_id, i.bay, i.shelf
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
            SELECT \(store.rawValue), w.product_id, w.on_hand - coalesce(b.on_hand, 0), 'import', 'CSV import', w.on_hand
            FROM written w LEFT JOIN before b ON b.product_id = w.product_id
            WHERE w.on_hand <> coalesce(b.on_hand, 0)
            """, logger: logger)
        return created
    }
}
