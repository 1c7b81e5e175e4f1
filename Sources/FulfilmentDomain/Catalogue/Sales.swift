import Foundation
import Logging

/// A store's sales: listed by its staff, made and ended by its manager, always within the
/// caller's store (its `StoreScope` is bound into every statement, so another store's sale is
/// simply not found). While a sale runs, `store_price` answers its price everywhere.
package struct Sales: Sendable {
    package let database: Database

    package func list(_ state: Sale.State?, in scope: StoreScope, limit: Int, cursor: String?, logger: Logger) async throws -> Page<Sale> {
        try await SaleQueries.list(state, in: scope, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Puts `draft.product` on sale at the caller's store. The window is checked here; the
    /// product, the store's range, the currency and the price below the regular one are checked
    /// by the statement that writes, so a refused sale writes nothing.
    package func create(_ draft: Sale.Draft, by user: UserID, in scope: StoreScope, now: Date = Date(), logger: Logger) async throws -> Sale {
        let draft = try draft.checked(now: now)
        guard let found = try await SaleQueries.create(draft, by: user, in: scope, on: database.client, logger: logger) else {
            throw SaleError.productNotFound
        }
        if let sale = found.sale { return sale }
        if found.discontinued { throw SaleError.productDiscontinued(draft.product) }
        if !found.carried { throw SaleError.notInRange }
        if found.currency != draft.price.currency {
            throw SaleError.invalidField("currency", "The product is priced in \(found.currency); a sale price is in the same currency.")
        }
        throw SaleError.priceNotLower(regular: Money(amount: found.regular, currency: found.currency))
    }

    /// Ends a running sale now, or withdraws an upcoming one; one already over is `alreadyEnded`.
    package func end(_ sale: SaleID, by user: UserID, in scope: StoreScope, logger: Logger) async throws -> Sale {
        switch try await SaleQueries.end(sale, by: user, in: scope, on: database.client, logger: logger) {
        case .done(let sale)?: return sale
        case .alreadyEnded?: throw SaleError.alreadyEnded
        case nil: throw SaleError.saleNotFound
        }
    }
}
