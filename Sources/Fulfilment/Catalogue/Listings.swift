import Logging

/// What a shop's listing screens show beside search (issue 26): the categories with their
/// counts. Public: nothing here is scoped to a caller.
struct Listings: Sendable {
    let database: Database

    /// The categories by name, each with its count of products on sale, at `store` when given
    /// (the caller checked the store exists).
    func categories(at store: StoreID?, logger: Logger) async throws -> [CategoryCount] {
        try await CategoryQueries.counts(store: store, on: database.client, logger: logger)
    }
}
