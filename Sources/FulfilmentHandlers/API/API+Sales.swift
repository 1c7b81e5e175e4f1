import Foundation
import FulfilmentDomain

/// A store's sales (issue 26): its staff list them, its manager makes and ends them. The store
/// in the path is the caller's (`AccessMiddleware`); `Sales` binds the caller's `StoreScope`.
extension API {

    func listSales(_ input: Operations.ListSales.Input) async throws -> Operations.ListSales.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let scope = try StoreScope(staff: Identity.required)
        let state = input.query.state.flatMap { Sale.State(rawValue: $0.rawValue) }
        let page = try await services.sales.list(
            state, in: scope, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.Sale.init), nextCursor: page.nextCursor))))
    }

    func createSale(_ input: Operations.CreateSale.Input) async throws -> Operations.CreateSale.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let identity = try Identity.required
        let scope = try StoreScope(staff: identity)
        guard let product = ProductID(body.productId) else { throw SaleError.productNotFound }
        let draft = Sale.Draft(
            product: product, price: Money(amount: body.price.amount, currency: body.price.currency), startsAt: body.startsAt,
            endsAt: body.endsAt)
        let sale = try await services.sales.create(draft, by: identity.userID, in: scope, logger: logger)
        return .created(.init(body: .json(try .init(sale))))
    }

    func endSale(_ input: Operations.EndSale.Input) async throws -> Operations.EndSale.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let identity = try Identity.required
        let scope = try StoreScope(staff: identity)
        guard let sale = SaleID(input.path.saleId) else { throw SaleError.saleNotFound }
        return .ok(.init(body: .json(try .init(try await services.sales.end(sale, by: identity.userID, in: scope, logger: logger)))))
    }
}

extension Components.Schemas.Sale {
    init(_ sale: Sale) throws {
        self.init(
            id: sale.id.description, storeId: sale.store.description, productId: sale.product.description,
            productName: sale.productName, price: .init(sale.price), regularPrice: .init(sale.regularPrice), startsAt: sale.startsAt,
            endsAt: sale.endsAt, state: try .matching(sale.state.rawValue), endedEarly: sale.endedEarly)
    }
}
