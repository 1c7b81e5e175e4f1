import Foundation
import Logging
import PostgresNIO

/// What a minimum age may be (alcohol: 18): a whole number from 1 to 120, or none (anyone may
/// buy it). Checkout records the age that holds at the store on the order line, and the desk
/// then asks for ID (`IDCheck`).
enum MinimumAge {
    static let range = 1...120

    static func checked(_ age: Int?) throws(CatalogueError) -> Int? {
        guard let age else { return nil }
        guard range.contains(age) else { throw .invalidField("minimumAge", "A minimum age is a whole number from 1 to 120.") }
        return age
    }

    /// A `minimum_age` field of the CSV import: empty clears it, else a whole number 1...120.
    static func parse(_ text: String) throws(CatalogueError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let age = Int(trimmed) else { throw .invalidField("minimum_age", "minimum_age '\(trimmed)' is not a whole number") }
        return try checked(age)
    }
}

/// A product's minimum age at one store: the chain's, which its admin sets and which holds in
/// every store, and the store's own, which its manager may add where the store's law is
/// stricter. The stricter of the two holds.
struct ProductMinimumAge: Sendable, Equatable {
    var chain: Int?
    var store: Int?

    /// What a customer of the store must be: the greater of the two, nil when neither asks any.
    var holding: Int? { [chain, store].compactMap { $0 }.max() }

    /// The store's own age, checked against the chain's: never below it (a store may ask more,
    /// never less); nil clears it.
    static func storeAge(_ age: Int?, chain: Int?) throws(CatalogueError) -> Int? {
        guard let age = try MinimumAge.checked(age) else { return nil }
        if let chain, age < chain { throw .minimumAgeBelowChain(chain: chain) }
        return age
    }
}

/// Setting and reading minimum ages: the chain's (an admin, `AccessPolicy`) and a store's own
/// (a manager of that store, whose store is bound into the SQL).
struct MinimumAges: Sendable {
    let database: Database

    /// Sets (or clears) the chain's age of `product`.
    func setChainWide(_ age: Int?, product: ProductID, logger: Logger) async throws -> Int? {
        let age = try MinimumAge.checked(age)
        guard try await MinimumAgeQueries.setChainWide(age, product: product, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return age
    }

    /// The ages of `product` at `store`.
    func at(_ store: StoreID, product: ProductID, logger: Logger) async throws -> ProductMinimumAge {
        guard let ages = try await MinimumAgeQueries.ages(of: product, at: store, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return ages
    }

    /// Sets (or clears) `store`'s own age of `product`, never below the chain's. The check and
    /// the write are one statement, so it holds against the chain's age as that statement saw it;
    /// a chain age raised later still holds, as the greater one always does.
    func setForStore(_ age: Int?, product: ProductID, store: StoreID, logger: Logger) async throws -> ProductMinimumAge {
        let age = try MinimumAge.checked(age)
        guard let outcome = try await MinimumAgeQueries.setForStore(age, product: product, store: store, on: database.client, logger: logger)
        else { throw CatalogueError.productNotFound }
        _ = try ProductMinimumAge.storeAge(age, chain: outcome.chain)
        return outcome
    }
}
