import Logging

/// What a shop's listing screens show beside search (issue 26): the categories with their
/// counts, and the best price of a scanned barcode across the chain's stores. Public: nothing
/// here is scoped to a caller.
package struct Listings: Sendable {
    package let database: Database

    /// The categories by name, each with its count of products on sale, at `store` when given
    /// (the caller checked the store exists).
    package func categories(at store: StoreID?, logger: Logger) async throws -> [CategoryCount] {
        try await CategoryQueries.counts(store: store, on: database.client, logger: logger)
    }

    /// Every store that carries the product with `barcode`, cheapest first, then nearest to
    /// `near` when given, then by store code; `barcodeNotFound` when no product has it.
    package func bestPrices(barcode: Barcode, near: GeoPoint?, logger: Logger) async throws -> [BestPrice] {
        guard let offers = try await BestPriceQueries.offers(barcode: barcode, near: near, on: database.client, logger: logger) else {
            throw CatalogueError.barcodeNotFound(barcode)
        }
        return offers
    }
}
