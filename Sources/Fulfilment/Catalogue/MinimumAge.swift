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
        let rows = try await client.query(
            "UPDATE products SET minimum_age = \(age), updated_at = now() WHERE id = \(product) RETURNING 1", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    static func of(product: UUID, on client: PostgresClient, logger: Logger) async throws -> Int? {
        let rows = try await client.query("SELECT minimum_age FROM products WHERE id = \(product)", logger: logger)
        for try await age in rows.decode(Int?.self) { return age }
        return nil
    }
}
