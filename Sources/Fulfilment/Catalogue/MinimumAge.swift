import Foundation
import Logging
import PostgresNIO

/// A product's minimum age (alcohol: 18), set by a manager: checkout copies it onto the order
/// line, and the desk then asks for ID (`IDCheck`). Nil means anyone may buy it.
enum MinimumAge {
    static let range = 1...120

    static func checked(_ age: Int?) throws(CatalogueError) -> Int? {
        guard let age else { return nil }
        guard range.contains(age) else { throw .invalidField("minimumAge", "A minimum age is a whole number from 1 to 120.") }
        return age
    }

    /// Sets (or clears) the minimum age; false when no such product exists.
    static func set(_ age: Int?, product: UUID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            "UPDATE products SET minimum_age = \(age), updated_at = now() WHERE id = \(product) RETURNING 1", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    static func of(product: UUID, on client: PostgresClient, logger: Logger) async throws -> Int? {
        let rows = try await client.run("SELECT minimum_age FROM products WHERE id = \(product)", logger: logger)
        for try await age in rows.decode(Int?.self) { return age }
        return nil
    }
}

extension MinimumAge {
    /// A `minimum_age` field of the CSV import: empty clears it, else a whole number 1...120.
    static func parse(_ text: String) throws(CatalogueError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let age = Int(trimmed) else { throw .invalidField("minimum_age", "minimum_age '\(trimmed)' is not a whole number") }
        return try checked(age)
    }

    /// The import's minimum ages by SKU, in the import's transaction (after its products exist).
    static func set(_ ages: [(String, Int?)], on connection: PostgresConnection, logger: Logger) async throws {
        guard !ages.isEmpty else { return }
        // 0 stands for "none" in the bound array (ages are 1...120), turned back into NULL here.
        try await connection.run(
            """
            UPDATE products p SET minimum_age = NULLIF(u.age, 0), updated_at = now()
            FROM unnest(\(ages.map(\.0))::text[], \(ages.map { Int32($0.1 ?? 0) })::int4[]) AS u(sku, age)
            WHERE p.sku = u.sku AND p.minimum_age IS DISTINCT FROM NULLIF(u.age, 0)
            """, logger: logger)
    }
}
