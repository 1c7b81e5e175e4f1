import Logging

/// A store's stock as its manager keeps it: the reorder report, levels, locations and the
/// stock ledger. Every method works on the caller's store (`StoreScope(staff:)`), bound into
/// its SQL, so another store's stock is never reached.
package struct Stock: Sendable {
    package let database: Database

    /// The store's stock by product name; `lowOnly` keeps products at or below minimum supply.
    package func list(in scope: StoreScope, lowOnly: Bool, limit: Int, cursor: String?, logger: Logger) async throws -> Page<ProductRecord> {
        try await StockQueries.list(in: scope, lowOnly: lowOnly, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// The products to count: picked short since their last count, latest first (issue 46).
    package func checks(in scope: StoreScope, logger: Logger) async throws -> [StockCheck] {
        try await StockCheckQueries.open(in: scope, limit: 100, on: database.client, logger: logger)
    }

    /// The product with its stock at the store; `notStocked` when the store does not carry it.
    package func entry(of product: ProductID, in scope: StoreScope, logger: Logger) async throws -> (ProductRecord, StockRecord) {
        let store = try oneStore(scope)
        guard let record = try await ProductQueries.product(id: product, store: store, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        guard let stock = record.stock else { throw CatalogueError.notStocked }
        return (record, stock)
    }

    /// Applies `adjustment` to on hand, starting to carry the product at 0 when the store did
    /// not, and records it. Refused when on hand would fall below what open orders reserve.
    package func adjust(
        _ adjustment: StockAdjustment, product: ProductID, in scope: StoreScope, by actor: UserID, logger: Logger
    ) async throws -> StockMovement {
        _ = try oneStore(scope)
        return try await database.transaction(logger: logger) { connection in
            let current = try await StockQueries.lock(product: product, in: scope, on: connection, logger: logger)
            let after = current.onHand + adjustment.delta
            guard after >= current.reserved else { throw CatalogueError.stockBelowReserved(reserved: current.reserved) }
            guard after <= StockAdjustment.limit else { throw CatalogueError.onHandTooLarge(limit: StockAdjustment.limit) }
            return try await StockQueries.write(
                onHand: after, delta: adjustment.delta, reason: adjustment.reason, note: adjustment.note, minSupply: nil,
                product: product, in: scope, actor: actor, on: connection, logger: logger)
        }
    }

    /// Sets on hand (a count) and minimum supply, only if on hand is still `expected`, the
    /// figure the manager saw: otherwise 409 `stock_changed` and nothing is written.
    package func set(_ level: StockLevel, expected: Int, product: ProductID, in scope: StoreScope, by actor: UserID, logger: Logger) async throws {
        _ = try oneStore(scope)
        try await database.transaction(logger: logger) { connection in
            let current = try await StockQueries.lock(product: product, in: scope, on: connection, logger: logger)
            guard current.onHand == expected else { throw CatalogueError.stockChanged(onHand: current.onHand, expected: expected) }
            guard level.onHand >= current.reserved else { throw CatalogueError.stockBelowReserved(reserved: current.reserved) }
            _ = try await StockQueries.write(
                onHand: level.onHand, delta: level.onHand - current.onHand, reason: .count, note: nil, minSupply: level.minSupply,
                product: product, in: scope, actor: actor, on: connection, logger: logger)
        }
    }

    /// The ledger of one product at the store, newest first. The cursor is the last id of the
    /// page before.
    package func movements(
        of product: ProductID, in scope: StoreScope, limit: Int, cursor: String?, logger: Logger
    ) async throws -> Page<StockMovement> {
        let after = try cursor.flatMap { $0.isEmpty ? nil : $0 }.map { text throws(CatalogueError) in
            guard let id = Int64(text), id > 0 else { throw CatalogueError.invalidCursor }
            return id
        }
        return try await StockQueries.movements(of: product, in: scope, limit: limit, after: after, on: database.client, logger: logger)
    }

    /// Puts the product at `location`, carrying it at the store (nothing on hand) if it was not.
    package func setLocation(_ location: LocationDraft, product: ProductID, in scope: StoreScope, logger: Logger) async throws {
        _ = try oneStore(scope)
        try await StockQueries.setLocation(location, product: product, in: scope, on: database, logger: logger)
    }

    /// Takes the product out of its aisle; `notStocked` when the store does not carry it.
    package func clearLocation(product: ProductID, in scope: StoreScope, logger: Logger) async throws {
        guard try await StockQueries.clearLocation(product: product, in: scope, on: database.client, logger: logger) else {
            throw CatalogueError.notStocked
        }
    }

    /// Stock is one store's: a chain-wide scope (the admin, whom the stock routes refuse
    /// already) has no store to write to.
    private func oneStore(_ scope: StoreScope) throws(CatalogueError) -> StoreID {
        guard let store = scope.store else { throw .storeNotFound }
        return store
    }
}
