import Foundation

/// A signed-in customer's favourites (a wish list that tracks stock) and chosen store.
extension API {
    func listFavourites(_ input: Operations.ListFavourites.Input) async throws -> Operations.ListFavourites.Output {
        let identity = try Identity.required
        let storeID: UUID? =
            if let requested = input.query.storeId {
                try await existingStore(requested).id
            } else {
                try await FavouriteQueries.chosenStore(user: identity.userID.rawValue, on: database.client, logger: logger)
            }
        let page = try await FavouriteQueries.list(
            user: identity.userID.rawValue, store: storeID, limit: try pageSize(input.query.limit), cursor: input.query.cursor,
            on: database.client, logger: logger)
        let items = page.items.map { Components.Schemas.Favourite(product: .init($0.0), addedAt: $0.1) }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func addFavourite(_ input: Operations.AddFavourite.Input) async throws -> Operations.AddFavourite.Output {
        let identity = try Identity.required
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        try await FavouriteQueries.add(user: identity.userID.rawValue, product: productID.rawValue, on: database.client, logger: logger)
        return .noContent(.init())
    }

    func removeFavourite(_ input: Operations.RemoveFavourite.Input) async throws -> Operations.RemoveFavourite.Output {
        let identity = try Identity.required
        // Not a product id at all: no such product (removing one that is not a favourite is fine).
        guard let productID = ProductID(input.path.productId) else { throw CatalogueError.productNotFound }
        try await FavouriteQueries.remove(user: identity.userID.rawValue, product: productID.rawValue, on: database.client, logger: logger)
        return .noContent(.init())
    }

    func chooseStore(_ input: Operations.ChooseStore.Input) async throws -> Operations.ChooseStore.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        let store = try await existingStore(body.storeId)
        try await FavouriteQueries.chooseStore(user: identity.userID.rawValue, store: store.id, on: database.client, logger: logger)
        return .ok(.init(body: .json(.init(storeId: store.id.uuidString.lowercased()))))
    }
}
