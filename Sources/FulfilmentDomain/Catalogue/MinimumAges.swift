import Logging

/// Setting and reading minimum ages: the chain's (an admin, `AccessPolicy`) and a store's own
/// (read by its staff, set by its manager: the caller's store is bound into the SQL).
package struct MinimumAges: Sendable {
    package let database: Database

    /// Sets (or clears) the chain's age of `product`.
    package func setChainWide(_ age: Int?, product: ProductID, logger: Logger) async throws -> Int? {
        let age = try ProductMinimumAge.checked(age)
        guard try await MinimumAgeQueries.setChainWide(age, product: product, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return age
    }

    /// The ages of `product` at the caller's store.
    package func at(_ scope: StoreScope, product: ProductID, logger: Logger) async throws -> ProductMinimumAge {
        guard let ages = try await MinimumAgeQueries.ages(of: product, at: scope, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return ages
    }

    /// Sets (or clears) the caller's store's own age of `product`, never below the chain's. The
    /// check and the write are one statement, so it holds against the chain's age as that
    /// statement saw it; a chain age raised later still holds, as the greater one always does.
    package func setForStore(_ age: Int?, product: ProductID, in scope: StoreScope, logger: Logger) async throws -> ProductMinimumAge {
        let age = try ProductMinimumAge.checked(age)
        // A store's own age belongs to one store; the chain's admin sets the chain's instead.
        guard !scope.isChainWide else { throw CatalogueError.storeNotFound }
        guard let outcome = try await MinimumAgeQueries.setForStore(age, product: product, in: scope, on: database.client, logger: logger)
        else { throw CatalogueError.productNotFound }
        _ = try ProductMinimumAge.storeAge(age, chain: outcome.chain)
        return outcome
    }
}
