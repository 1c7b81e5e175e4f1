import Logging

/// A store's news: anyone reads what is published; the store's managers write, publish, pin
/// and delete (their `StoreScope` is bound into every write, so another store's item is not
/// found), and its staff read drafts.
package struct News: Sendable {
    package let database: Database

    package func published(at store: StoreID, limit: Int, cursor: String?, logger: Logger) async throws -> Page<NewsItem> {
        try await NewsQueries.published(at: store, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Every item of the caller's store, drafts included, newest first (the console's editor).
    package func all(in scope: StoreScope, logger: Logger) async throws -> [NewsItem] {
        try await NewsQueries.all(in: scope, on: database.client, logger: logger)
    }

    /// One item: a published one to anyone, a draft to the store's staff only.
    package func item(_ id: NewsID, at store: StoreID, viewer: Viewer, logger: Logger) async throws -> NewsItem {
        let staff = viewer.role?.worksInStore == true && viewer.store == store
        guard let item = try await NewsQueries.item(id, at: store, on: database.client, logger: logger), item.published || staff else {
            throw ContentError.newsNotFound
        }
        return item
    }

    package func create(_ draft: NewsItem.Draft, by author: UserID, in scope: StoreScope, logger: Logger) async throws -> NewsItem {
        try await NewsQueries.create(draft, by: author, in: scope, on: database.client, logger: logger)
    }

    package func update(_ id: NewsID, _ draft: NewsItem.Draft, in scope: StoreScope, logger: Logger) async throws -> NewsItem {
        guard let item = try await NewsQueries.update(id, draft, in: scope, on: database.client, logger: logger) else {
            throw ContentError.newsNotFound
        }
        return item
    }

    /// Sets or replaces the item's image (checked as product images are: `ProductImage`).
    package func setImage(_ image: ProductImage, of id: NewsID, in scope: StoreScope, logger: Logger) async throws -> NewsItem {
        guard let store = scope.store, try await NewsQueries.item(id, at: store, on: database.client, logger: logger) != nil else {
            throw ContentError.newsNotFound
        }
        try await ContentImageQueries.store(image, of: .news(id), on: database.client, logger: logger)
        return try await item(id, at: store, viewer: Viewer(role: .manager, store: store), logger: logger)
    }

    /// The item's image, to whoever may read the item.
    package func image(of id: NewsID, at store: StoreID, viewer: Viewer, logger: Logger) async throws -> ProductImage {
        _ = try await item(id, at: store, viewer: viewer, logger: logger)
        guard let image = try await ContentImageQueries.image(of: .news(id), on: database.client, logger: logger) else {
            throw ContentError.imageNotFound
        }
        return image
    }

    package func delete(_ id: NewsID, in scope: StoreScope, logger: Logger) async throws {
        guard try await NewsQueries.delete(id, in: scope, on: database.client, logger: logger) else { throw ContentError.newsNotFound }
    }
}
