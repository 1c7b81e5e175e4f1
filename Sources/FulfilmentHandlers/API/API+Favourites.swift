import Foundation
import FulfilmentDomain

/// A signed-in customer's favourites (a wish list that tracks stock) and chosen store.
extension API {

    func listFavourites(_ input: Operations.ListFavourites.Input) async throws -> Operations.ListFavourites.Output {
        let identity = try Identity.required
        let storeID = try await optionalStore(input.query.storeId)
        let page = try await services.favourites.list(
            of: identity.userID, at: storeID, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        let items = try page.items.map { Components.Schemas.Favourite(product: try .init($0.0), addedAt: $0.1) }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func addFavourite(_ input: Operations.AddFavourite.Input) async throws -> Operations.AddFavourite.Output {
        let identity = try Identity.required
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        try await services.favourites.add(productID, for: identity.userID, logger: logger)
        return .noContent(.init())
    }

    func removeFavourite(_ input: Operations.RemoveFavourite.Input) async throws -> Operations.RemoveFavourite.Output {
        let identity = try Identity.required
        // Not a product id at all: no such product (removing one that is not a favourite is fine).
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        try await services.favourites.remove(productID, for: identity.userID, logger: logger)
        return .noContent(.init())
    }

    func chooseStore(_ input: Operations.ChooseStore.Input) async throws -> Operations.ChooseStore.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        let store = try await existingStore(body.storeId)
        try await services.favourites.chooseStore(store.id, for: identity.userID, logger: logger)
        return .ok(.init(body: .json(.init(storeId: store.id.description))))
    }
}
