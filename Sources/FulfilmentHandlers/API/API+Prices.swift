import Foundation
import FulfilmentDomain

extension API {

    func getStorePrice(_ input: Operations.GetStorePrice.Input) async throws -> Operations.GetStorePrice.Output {
        let (scope, product) = try storeProduct(input.path.storeId, input.path.productId)
        return .ok(.init(body: .json(.init(try await services.prices.at(scope, product: product, logger: logger)))))
    }

    func setStorePrice(_ input: Operations.SetStorePrice.Input) async throws -> Operations.SetStorePrice.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (scope, product) = try storeProduct(input.path.storeId, input.path.productId)
        let identity = try Identity.required
        let price = Money(amount: body.amount, currency: body.currency)
        return .ok(.init(body: .json(.init(try await services.prices.set(price, product: product, by: identity.userID, in: scope, logger: logger)))))
    }

    func deleteStorePrice(_ input: Operations.DeleteStorePrice.Input) async throws -> Operations.DeleteStorePrice.Output {
        let (scope, product) = try storeProduct(input.path.storeId, input.path.productId)
        return .ok(.init(body: .json(.init(try await services.prices.remove(product: product, in: scope, logger: logger)))))
    }
}

extension Components.Schemas.StorePrice {
    init(_ price: StorePrice) {
        self.init(
            productId: price.product.description, storeId: price.store.description, price: .init(price.holding),
            catalogPrice: .init(price.catalog), storePrice: price.ownPrice.map(Components.Schemas.Money.init))
    }
}
