import Foundation

/// The listings a shop shows beside search (issue 26): the categories with their counts. Public
/// routes; rules live in `Catalogue/Listings.swift`, SQL in `CategoryQueries`.
extension API {
    var listings: Listings { Listings(database: database) }

    func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
        let store = try await optionalStore(input.query.storeId)
        let categories = try await listings.categories(at: store, logger: logger)
        let items = categories.map { Components.Schemas.Category(name: $0.name, productCount: $0.productCount) }
        return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
    }
}
