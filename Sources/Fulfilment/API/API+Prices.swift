import Foundation

extension API {
    var prices: Prices { Prices(database: database) }

    // The store in the path is the caller's (`AccessMiddleware` refused any other with 403); the
    // queries bind the caller's own store, taken from who they are.

    func getStorePrice(_ input: Operations.GetStorePrice.Input) async throws -> Operations.GetStorePrice.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let scope = try StoreScope(staff: Identity.required)
        return .ok(.init(body: .json(.init(try await prices.at(scope, product: product, logger: logger)))))
    }

    func setStorePrice(_ input: Operations.SetStorePrice.Input) async throws -> Operations.SetStorePrice.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let identity = try Identity.required
        let scope = try StoreScope(staff: identity)
        let price = Money(amount: body.amount, currency: body.currency)
        return .ok(.init(body: .json(.init(try await prices.set(price, product: product, by: identity.userID, in: scope, logger: logger)))))
    }

    func deleteStorePrice(_ input: Operations.DeleteStorePrice.Input) async throws -> Operations.DeleteStorePrice.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let scope = try StoreScope(staff: Identity.required)
        return .ok(.init(body: .json(.init(try await prices.remove(product: product, in: scope, logger: logger)))))
    }
}

extension Components.Schemas.StorePrice {
    init(_ price: StorePrice) {
        self.init(
            productId: price.product.description, storeId: price.store.description, price: .init(price.holding),
            catalogPrice: .init(price.catalog), storePrice: price.ownPrice.map(Components.Schemas.Money.init))
    }
}
