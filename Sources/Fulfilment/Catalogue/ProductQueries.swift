import Foundation
import Logging
import PostgresNIO

/// What a catalogue search asks for.
struct ProductSearch: Sendable {
    /// Lower-cased and trimmed; empty lists the catalogue by name.
    var text: String
    /// Only products this store carries, with their stock there.
    var storeID: UUID?
    var category: String?
    var limit: Int
    var cursor: String?

    init(text: String?, storeID: UUID?, category: String?, limit: Int, cursor: String?) throws(CatalogueError) {
        let text = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard text.count <= 100 else { throw .invalidField("q", "The search text must be at most 100 characters.") }
        self.text = text
        self.storeID = storeID
        let category = category?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.category = category?.isEmpty == true ? nil : category
        self.limit = limit
        self.cursor = cursor
    }
}

/// The SQL of the catalogue: search, lookups and the manager's edits.
enum ProductQueries {
    /// How alike a search word and a name or brand must be (pg_trgm word similarity, 0...1).
    /// 0.4 lets "mozarela" (0.55 against "mozzarella") through; the default 0.6 would not.
    static let wordSimilarityThreshold = "0.4"

    /// Typo-tolerant search, best first, or (empty text) the catalogue by name.
    static func search(_ search: ProductSearch, on database: Database, logger: Logger) async throws -> Page<ProductRecord> {
        if search.text.isEmpty {
            return try await listByName(search, on: database.client, logger: logger)
        }
        let after = try PageCursor.decode(search.cursor, as: PageCursor.Ranked.self)
        let storeFilter = search.storeID != nil
        // For this transaction only: the threshold the `<%` operators (and their trigram indexes)
        // use, and no sequential scan. The planner prices `<%` as cheap and, on a large catalogue,
        // scores every row (measured on 100,000 products: 290 ms) instead of asking the trigram
        // indexes for candidates (45 ms).
        let rows: [(ProductRecord, Float)] = try await database.transaction(logger: logger) { connection in
            try await connection.run(
                """
                SELECT set_config('pg_trgm.word_similarity_threshold', \(wordSimilarityThreshold), true),
                       set_config('enable_seqscan', 'off', true)
                """, logger: logger)
            let rows = try await connection.run(
                """
                SELECT * FROM (
                    SELECT \(unescaped: ProductRecord.columns),
                           (GREATEST(word_similarity(\(search.text), lower(p.name)), word_similarity(\(search.text), lower(p.brand)))
                            + 0.1 * similarity(\(search.text), lower(p.name)))::real AS score
                    FROM products p
                    LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(search.storeID)
                    \(unescaped: ProductRecord.extraJoins)
                    WHERE NOT p.discontinued
                      AND (\(search.text) <% lower(p.name) OR \(search.text) <% lower(p.brand))
                      AND (\(search.category)::text IS NULL OR p.category = \(search.category))
                      AND (NOT \(storeFilter) OR s.store_id IS NOT NULL)
                ) m
                WHERE \(after == nil) OR m.score < \(after?.score ?? 0) OR (m.score = \(after?.score ?? 0) AND m.p_id > \(after?.id ?? UUID()))
                ORDER BY m.score DESC, m.p_id
                LIMIT \(search.limit + 1)
                """, logger: logger)
            var result: [(ProductRecord, Float)] = []
            for try await row in rows {
                result.append((try ProductRecord(row: row), try row.makeRandomAccess()["score"].decode(Float.self)))
            }
            return result
        }
        let page = Array(rows.prefix(search.limit))
        let next = rows.count > search.limit ? page.last.map { PageCursor.encode(PageCursor.Ranked(score: $0.1, id: $0.0.id)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// The catalogue in name order (case-insensitive), paged on (lower(name), id).
    static func listByName(_ search: ProductSearch, on client: PostgresClient, logger: Logger) async throws -> Page<ProductRecord> {
        let after = try PageCursor.decode(search.cursor, as: PageCursor.Named.self)
        let storeFilter = search.storeID != nil
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductRecord.columns), lower(p.name) AS sort_key
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(search.storeID)
            \(unescaped: ProductRecord.extraJoins)
            WHERE NOT p.discontinued
              AND (\(search.category)::text IS NULL OR p.category = \(search.category))
              AND (NOT \(storeFilter) OR s.store_id IS NOT NULL)
              AND (\(after == nil) OR (lower(p.name), p.id) > (\(after?.n ?? ""), \(after?.id ?? UUID())))
            ORDER BY lower(p.name), p.id
            LIMIT \(search.limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, String)] = []
        for try await row in rows {
            result.append((try ProductRecord(row: row), try row.makeRandomAccess()["sort_key"].decode(String.self)))
        }
        let page = Array(result.prefix(search.limit))
        let next = result.count > search.limit ? page.last.map { PageCursor.encode(PageCursor.Named(n: $0.1, id: $0.0.id)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// One product (discontinued too), with its stock at `storeID` when given.
    static func product(id: UUID, store storeID: UUID?, on client: PostgresClient, logger: Logger) async throws -> ProductRecord? {
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductRecord.columns)
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID)
            \(unescaped: ProductRecord.extraJoins)
            WHERE p.id = \(id)
            """, logger: logger)
        for try await row in rows { return try ProductRecord(row: row) }
        return nil
    }

    static func product(barcode: Barcode, store storeID: UUID?, on client: PostgresClient, logger: Logger) async throws -> ProductRecord? {
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductRecord.columns)
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID)
            \(unescaped: ProductRecord.extraJoins)
            WHERE p.barcode = \(barcode.digits)
            """, logger: logger)
        for try await row in rows { return try ProductRecord(row: row) }
        return nil
    }

    static func insert(_ draft: ProductDraft, on client: PostgresClient, logger: Logger) async throws -> UUID {
        let id = UUID()
        do {
            try await client.run(
                """
                INSERT INTO products (id, sku, barcode, name, brand, description, category, price_amount, currency)
                VALUES (\(id), \(draft.sku), \(draft.barcode?.digits), \(draft.name), \(draft.brand), \(draft.description),
                        \(draft.category), \(draft.price.amount), \(draft.price.currency))
                """, logger: logger)
        } catch {
            throw mapped(error)
        }
        return id
    }

    /// Applies the fields `change` has; returns false when there is no such product.
    static func update(id: UUID, _ change: ProductChange, on client: PostgresClient, logger: Logger) async throws -> Bool {
        do {
            let rows = try await client.run(
                """
                UPDATE products SET
                    sku = COALESCE(\(change.sku), sku),
                    barcode = CASE WHEN \(change.barcode != nil) THEN \(change.barcode??.digits) ELSE barcode END,
                    name = COALESCE(\(change.name), name),
                    brand = COALESCE(\(change.brand), brand),
                    description = COALESCE(\(change.description), description),
                    category = COALESCE(\(change.category), category),
                    price_amount = COALESCE(\(change.price?.amount), price_amount),
                    currency = COALESCE(\(change.price?.currency), currency),
                    discontinued = COALESCE(\(change.discontinued), discontinued),
                    updated_at = now()
                WHERE id = \(id)
                RETURNING id
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        } catch {
            throw mapped(error)
        }
    }

    /// Unique violations on SKU or barcode are the client's conflict, not a 500.
    static func mapped(_ error: any Error) -> any Error {
        guard error.sqlState == SQLState.uniqueViolation else { return error }
        switch error.constraintName {
        case "products_sku_key": return CatalogueError.skuTaken
        case "products_barcode_key": return CatalogueError.barcodeTaken
        default: return error
        }
    }
}
