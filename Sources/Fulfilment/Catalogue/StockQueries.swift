import Foundation
import Logging
import PostgresNIO

/// A place to put a product, checked: an aisle code, and optionally bay (1...999) and shelf.
struct LocationDraft: Sendable, Equatable {
    var aisleCode: String
    var bay: Int?
    var shelf: String?

    init(aisleCode: String, bay: Int?, shelf: String?) throws(CatalogueError) {
        let code = aisleCode.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { throw .invalidField("aisleCode", "An aisle code is required.") }
        if let bay, !(1...999).contains(bay) { throw .invalidField("bay", "A bay is a number from 1 to 999.") }
        let shelf = shelf?.trimmingCharacters(in: .whitespaces)
        if let shelf, shelf.count > 10 { throw .invalidField("shelf", "A shelf is at most 10 characters.") }
        self.aisleCode = code
        self.bay = bay
        self.shelf = shelf?.isEmpty == true ? nil : shelf
    }
}

/// Stock levels, checked: never negative.
struct StockLevel: Sendable, Equatable {
    var onHand: Int
    var minSupply: Int

    init(onHand: Int, minSupply: Int) throws(CatalogueError) {
        guard (0...1_000_000_000).contains(onHand) else { throw .invalidField("onHand", "On hand must be 0 or more.") }
        guard (0...1_000_000_000).contains(minSupply) else {
            throw .invalidField("minSupply", "Minimum supply must be 0 or more.")
        }
        self.onHand = onHand
        self.minSupply = minSupply
    }
}

/// The SQL of per-store stock: levels, locations and the reorder report.
enum StockQueries {
    /// Puts the product at `location` (one call moves it from wherever it was), carrying it
    /// at the store with nothing on hand if it was not carried yet.
    static func setLocation(
        _ location: LocationDraft?, store storeID: UUID, product productID: UUID, on database: Database, logger: Logger
    ) async throws {
        try await database.transaction(logger: logger) { connection in
            var aisleID: UUID?
            if let location {
                aisleID = try await connection.run(
                    "SELECT id FROM aisles WHERE store_id = \(storeID) AND code = \(location.aisleCode)", logger: logger
                ).decode(UUID.self).first { _ in true }
                guard aisleID != nil else { throw CatalogueError.aisleNotFound(location.aisleCode) }
            }
            do {
                try await connection.run(
                    """
                    INSERT INTO stock (store_id, product_id, aisle_id, bay, shelf)
                    VALUES (\(storeID), \(productID), \(aisleID), \(location?.bay), \(location?.shelf))
                    ON CONFLICT (store_id, product_id) DO UPDATE
                    SET aisle_id = EXCLUDED.aisle_id, bay = EXCLUDED.bay, shelf = EXCLUDED.shelf, updated_at = now()
                    """, logger: logger)
            } catch {
                throw mapped(error)
            }
        }
    }

    /// Takes the product out of its aisle; false when the store does not carry it.
    static func clearLocation(store storeID: UUID, product productID: UUID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            UPDATE stock SET aisle_id = NULL, bay = NULL, shelf = NULL, updated_at = now()
            WHERE store_id = \(storeID) AND product_id = \(productID)
            RETURNING product_id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// The store's stock by product name; `lowOnly` keeps products at or below minimum supply.
    static func list(
        store storeID: UUID, lowOnly: Bool, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<ProductRecord> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Named.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductRecord.columns), lower(p.name) AS sort_key
            FROM stock s
            JOIN products p ON p.id = s.product_id
            \(unescaped: ProductRecord.extraJoins)
            WHERE s.store_id = \(storeID)
              AND (NOT \(lowOnly) OR s.on_hand <= s.min_supply)
              AND (\(after == nil) OR (lower(p.name), p.id) > (\(after?.n ?? ""), \(after?.id ?? UUID())))
            ORDER BY lower(p.name), p.id
            LIMIT \(limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, String)] = []
        for try await row in rows {
            result.append((try ProductRecord(row: row), try row.makeRandomAccess()["sort_key"].decode(String.self)))
        }
        let page = Array(result.prefix(limit))
        let next = result.count > limit ? page.last.map { PageCursor.encode(PageCursor.Named(n: $0.1, id: $0.0.id)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// The database's own guards, as client errors: an unknown product, a broken stock CHECK.
    static func mapped(_ error: any Error) -> any Error {
        switch (error.sqlState, error.constraintName) {
        case (SQLState.foreignKeyViolation, "stock_product_id_fkey"?):
            return CatalogueError.productNotFound
        case (SQLState.foreignKeyViolation, "stock_store_id_fkey"?):
            return CatalogueError.storeNotFound
        case (SQLState.checkViolation, "stock_reserved_within_on_hand"?):
            return CatalogueError.stockBelowReserved(reserved: nil)
        case (SQLState.checkViolation, _):
            return CatalogueError.invalidField("stock", "Stock quantities must be 0 or more.")
        default:
            return error
        }
    }
}
