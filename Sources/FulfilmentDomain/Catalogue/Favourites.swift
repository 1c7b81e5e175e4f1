import Foundation
import Logging

/// A signed-in customer's favourites (a wish list that tracks stock) and chosen store.
package struct Favourites: Sendable {
    package let database: Database

    /// Newest first, each with its stock at `store`, or at the customer's chosen store when
    /// none is given (and without stock when they chose none).
    package func list(
        of user: UserID, at store: StoreID?, limit: Int, cursor: String?, logger: Logger
    ) async throws -> Page<(ProductRecord, Date)> {
        var shown = store
        if shown == nil { shown = try await chosenStore(of: user, logger: logger) }
        return try await FavouriteQueries.list(user: user, store: shown, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Idempotent: adding a favourite twice keeps the first date.
    package func add(_ product: ProductID, for user: UserID, logger: Logger) async throws {
        try await FavouriteQueries.add(user: user, product: product, on: database.client, logger: logger)
    }

    /// Removing one that is not a favourite is fine.
    package func remove(_ product: ProductID, for user: UserID, logger: Logger) async throws {
        try await FavouriteQueries.remove(user: user, product: product, on: database.client, logger: logger)
    }

    package func chosenStore(of user: UserID, logger: Logger) async throws -> StoreID? {
        try await FavouriteQueries.chosenStore(user: user, on: database.client, logger: logger)
    }

    package func chooseStore(_ store: StoreID, for user: UserID, logger: Logger) async throws {
        try await FavouriteQueries.chooseStore(user: user, store: store, on: database.client, logger: logger)
    }
}
