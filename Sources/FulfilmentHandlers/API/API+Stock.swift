import Foundation
import FulfilmentDomain

/// A manager's stock routes for their own store: levels, locations, and the reorder report.
/// The store is the caller's (`StoreScope`), bound into every statement; `AccessMiddleware`
/// has already refused a path naming another store, so the path's `storeId` is that store.
extension API {

    func listStock(_ input: Operations.ListStock.Input) async throws -> Operations.ListStock.Output {
        let scope = try StoreScope(staff: Identity.required)
        let page = try await services.stock.list(
            in: scope, lowOnly: input.query.low ?? false, limit: try pageSize(input.query.limit), cursor: input.query.cursor,
            logger: logger)
        let items = try page.items.compactMap { product in try product.stock.map { try Components.Schemas.StockEntry(product, stock: $0) } }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func setStock(_ input: Operations.SetStock.Input) async throws -> Operations.SetStock.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        let scope = try StoreScope(staff: identity)
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let level = try StockLevel(onHand: body.onHand, minSupply: body.minSupply)
        try await services.stock.set(level, expected: body.expectedOnHand, product: productID, in: scope, by: identity.userID, logger: logger)
        return .ok(.init(body: .json(try await stockEntry(productID, in: scope))))
    }

    func adjustStock(_ input: Operations.AdjustStock.Input) async throws -> Operations.AdjustStock.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        let scope = try StoreScope(staff: identity)
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        guard let reason = StockReason(rawValue: body.reason.rawValue) else {
            throw CatalogueError.invalidField("reason", "Unknown reason.")
        }
        let adjustment = try StockAdjustment(delta: body.delta, reason: reason, note: body.note)
        let movement = try await services.stock.adjust(adjustment, product: productID, in: scope, by: identity.userID, logger: logger)
        return .created(.init(body: .json(.init(movement: try .init(movement), stock: try await stockEntry(productID, in: scope)))))
    }

    func listStockMovements(_ input: Operations.ListStockMovements.Input) async throws -> Operations.ListStockMovements.Output {
        let scope = try StoreScope(staff: Identity.required)
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let page = try await services.stock.movements(
            of: productID, in: scope, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.StockMovement.init), nextCursor: page.nextCursor))))
    }

    func listStockChecks(_ input: Operations.ListStockChecks.Input) async throws -> Operations.ListStockChecks.Output {
        let scope = try StoreScope(staff: Identity.required)
        let checks = try await services.stock.checks(in: scope, logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: checks.map {
                            .init(
                                productId: $0.productID.description, name: $0.name, sku: $0.sku, onHand: $0.onHand, reserved: $0.reserved,
                                askedAt: $0.askedAt, shortPicks: $0.shortPicks)
                        }, nextCursor: nil))))
    }

    func setStockLocation(_ input: Operations.SetStockLocation.Input) async throws -> Operations.SetStockLocation.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let scope = try StoreScope(staff: Identity.required)
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let location = try LocationDraft(aisleCode: body.aisleCode, bay: body.bay, shelf: body.shelf)
        try await services.stock.setLocation(location, product: productID, in: scope, logger: logger)
        return .ok(.init(body: .json(try await stockEntry(productID, in: scope))))
    }

    func clearStockLocation(_ input: Operations.ClearStockLocation.Input) async throws -> Operations.ClearStockLocation.Output {
        let scope = try StoreScope(staff: Identity.required)
        let productID = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        try await services.stock.clearLocation(product: productID, in: scope, logger: logger)
        return .ok(.init(body: .json(try await stockEntry(productID, in: scope))))
    }

    private func stockEntry(_ product: ProductID, in scope: StoreScope) async throws -> Components.Schemas.StockEntry {
        let (record, level) = try await services.stock.entry(of: product, in: scope, logger: logger)
        return try .init(record, stock: level)
    }
}

extension Components.Schemas.StockMovement {
    init(_ movement: StockMovement) throws {
        self.init(
            id: String(movement.id), productId: movement.productID.description, delta: movement.delta,
            reason: try .matching(movement.reason), note: movement.note, onHandAfter: movement.onHandAfter,
            by: movement.actorID?.description, byName: movement.actorName, at: movement.at, reservedDelta: movement.reservedDelta)
    }
}
