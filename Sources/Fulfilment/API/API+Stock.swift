import Foundation

/// A manager's stock routes for their own store (`AccessMiddleware` checks the store in the
/// path): levels, locations, and the reorder report.
extension API {
    func listStock(_ input: Operations.ListStock.Input) async throws -> Operations.ListStock.Output {
        let store = try await existingStore(input.path.storeId)
        let page = try await StockQueries.list(
            store: store.id, lowOnly: input.query.low ?? false, limit: try pageSize(input.query.limit),
            cursor: input.query.cursor, on: database.client, logger: logger)
        let items = page.items.compactMap { product in product.stock.map { Components.Schemas.StockEntry(product, stock: $0) } }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func setStock(_ input: Operations.SetStock.Input) async throws -> Operations.SetStock.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (store, productID) = try await stockTarget(input.path.storeId, input.path.productId)
        let level = try StockLevel(onHand: body.onHand, minSupply: body.minSupply)
        try await StockLedger.set(
            level, expected: body.expectedOnHand, store: store, product: productID, by: try Identity.required.userID,
            on: database, logger: logger)
        return .ok(.init(body: .json(try await stockEntry(store: store, product: productID))))
    }

    func adjustStock(_ input: Operations.AdjustStock.Input) async throws -> Operations.AdjustStock.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (store, productID) = try await stockTarget(input.path.storeId, input.path.productId)
        guard let reason = StockReason(rawValue: body.reason.rawValue) else { throw APIError.invalidField("reason", "Unknown reason.") }
        let adjustment = try StockAdjustment(delta: body.delta, reason: reason, note: body.note)
        let movement = try await StockLedger.adjust(
            adjustment, store: store, product: productID, by: try Identity.required.userID, on: database, logger: logger)
        return .created(.init(body: .json(.init(
            movement: .init(movement), stock: try await stockEntry(store: store, product: productID)))))
    }

    func listStockMovements(_ input: Operations.ListStockMovements.Input) async throws -> Operations.ListStockMovements.Output {
        let (store, productID) = try await stockTarget(input.path.storeId, input.path.productId)
        let page = try await StockLedger.movements(
            store: store, product: productID, limit: try pageSize(input.query.limit), cursor: input.query.cursor,
            on: database.client, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.StockMovement.init), nextCursor: page.nextCursor))))
    }

    func setStockLocation(_ input: Operations.SetStockLocation.Input) async throws -> Operations.SetStockLocation.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (store, productID) = try await stockTarget(input.path.storeId, input.path.productId)
        let location = try LocationDraft(aisleCode: body.aisleCode, bay: body.bay, shelf: body.shelf)
        try await StockQueries.setLocation(location, store: store, product: productID, on: database, logger: logger)
        return .ok(.init(body: .json(try await stockEntry(store: store, product: productID))))
    }

    func clearStockLocation(_ input: Operations.ClearStockLocation.Input) async throws -> Operations.ClearStockLocation.Output {
        let (store, productID) = try await stockTarget(input.path.storeId, input.path.productId)
        guard try await StockQueries.clearLocation(store: store, product: productID, on: database.client, logger: logger) else {
            throw CatalogueError.notStocked
        }
        return .ok(.init(body: .json(try await stockEntry(store: store, product: productID))))
    }

    /// The store and product of a stock route; 404 for either unknown.
    private func stockTarget(_ storeText: String, _ productText: String) async throws -> (UUID, UUID) {
        let store = try await existingStore(storeText)
        let productID = try ProductID.parse(productText, notFound: .productNotFound)
        return (store.id, productID.rawValue)
    }

    private func stockEntry(store: UUID, product productID: UUID) async throws -> Components.Schemas.StockEntry {
        let product = try await product(productID, store: store)
        guard let stock = product.stock else { throw CatalogueError.notStocked }
        return .init(product, stock: stock)
    }
}

extension Components.Schemas.StockMovement {
    init(_ movement: StockMovement) {
        self.init(
            id: String(movement.id), productId: movement.productID.uuidString.lowercased(), delta: movement.delta,
            reason: .init(rawValue: movement.reason) ?? .correction, note: movement.note, onHandAfter: movement.onHandAfter,
            by: movement.actorID?.uuidString.lowercased(), byName: movement.actorName, at: movement.at)
    }
}
