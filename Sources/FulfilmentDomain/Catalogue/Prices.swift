import Logging

/// A store's own prices: read by its staff, set and removed by its manager (the caller's store
/// is bound into the SQL, so another store's is never touched). Where a store sets none, it
/// charges the catalogue's price; `store_price` in `sql/routines/` is the same rule for checkout.
package struct Prices: Sendable {
    package let database: Database

    /// The prices of `product` at the caller's store.
    package func at(_ scope: StoreScope, product: ProductID, logger: Logger) async throws -> StorePrice {
        let store = try Self.store(of: scope)
        guard let row = try await PriceQueries.price(of: product, at: scope, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return StorePrice(row, product: product, store: store)
    }

    /// Sets the caller's store's own price of `product`. The currency is checked against the
    /// product's in the same statement that writes, so a refused price writes nothing.
    package func set(_ price: Money, product: ProductID, by user: UserID, in scope: StoreScope, logger: Logger) async throws -> StorePrice {
        let store = try Self.store(of: scope)
        let amount = try StorePrice.checked(amount: price.amount)
        guard
            let row = try await PriceQueries.set(
                amount, currency: price.currency, product: product, by: user, in: scope, on: database.client, logger: logger)
        else { throw CatalogueError.productNotFound }
        try StorePrice.check(currency: price.currency, productCurrency: row.currency)
        return StorePrice(row, product: product, store: store)
    }

    /// Removes the caller's store's own price of `product`: the catalogue's holds again.
    package func remove(product: ProductID, in scope: StoreScope, logger: Logger) async throws -> StorePrice {
        let store = try Self.store(of: scope)
        guard let row = try await PriceQueries.remove(product: product, in: scope, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return StorePrice(row, product: product, store: store)
    }

    /// A store's own price belongs to one store; the chain's admin sets the catalogue's instead.
    private static func store(of scope: StoreScope) throws(CatalogueError) -> StoreID {
        guard let store = scope.store else { throw .storeNotFound }
        return store
    }
}

extension StorePrice {
    package init(_ row: StorePriceRow, product: ProductID, store: StoreID) {
        self.init(product: product, store: store, catalog: Money(amount: row.catalog, currency: row.currency), own: row.own)
    }
}
