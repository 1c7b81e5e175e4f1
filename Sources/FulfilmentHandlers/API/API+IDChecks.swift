import Foundation
import FulfilmentDomain

extension API {

    func removeRestrictedLines(_ input: Operations.RemoveRestrictedLines.Input) async throws -> Operations.RemoveRestrictedLines.Output {
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let order = try await services.restrictedLines.remove(from: id, by: identity.userID, in: try StoreScope(staff: identity), logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }
}

extension Components.Schemas.IDCheck {
    init(_ check: IDCheck) {
        self.init(
            minimumAge: check.minimumAge, method: check.confirmation.map { .init(rawValue: $0.method.rawValue)! },
            confirmedBy: check.confirmation?.confirmedBy.description, confirmedByName: check.confirmation?.confirmedByName,
            confirmedAt: check.confirmation?.confirmedAt)
    }
}

extension API {
    func setProductMinimumAge(_ input: Operations.SetProductMinimumAge.Input) async throws -> Operations.SetProductMinimumAge.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let age = try await services.minimumAges.setChainWide(body.minimumAge, product: product, logger: logger)
        return .ok(.init(body: .json(.init(minimumAge: age))))
    }

    func getStoreMinimumAge(_ input: Operations.GetStoreMinimumAge.Input) async throws -> Operations.GetStoreMinimumAge.Output {
        let (scope, product) = try storeProduct(input.path.storeId, input.path.productId)
        return .ok(.init(body: .json(.init(try await services.minimumAges.at(scope, product: product, logger: logger)))))
    }

    func setStoreMinimumAge(_ input: Operations.SetStoreMinimumAge.Input) async throws -> Operations.SetStoreMinimumAge.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (scope, product) = try storeProduct(input.path.storeId, input.path.productId)
        let ages = try await services.minimumAges.setForStore(body.minimumAge, product: product, in: scope, logger: logger)
        return .ok(.init(body: .json(.init(ages))))
    }
}

/// `{"minimumAge": null}` when a product has none: the contract requires the field, and the
/// generated encoding would leave a nil out (apple/swift-openapi-generator#934, as `CursorList`).
extension Components.Schemas.MinimumAge {
    private enum Keys: String, CodingKey { case minimumAge }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(minimumAge, forKey: .minimumAge)
    }
}

extension Components.Schemas.StoreMinimumAge {
    init(_ ages: ProductMinimumAge) {
        self.init(minimumAge: ages.holding, chainMinimumAge: ages.chain, storeMinimumAge: ages.store)
    }

    private enum Keys: String, CodingKey { case minimumAge, chainMinimumAge, storeMinimumAge }

    /// Every field, null included: the contract requires them (as `MinimumAge` above).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(minimumAge, forKey: .minimumAge)
        try container.encode(chainMinimumAge, forKey: .chainMinimumAge)
        try container.encode(storeMinimumAge, forKey: .storeMinimumAge)
    }
}
