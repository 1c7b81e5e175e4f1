import Logging

/// The catalogue the chain shares: stores and their aisles as customers see them, search and
/// lookups with a store's availability, images, and the chain admin's product edits.
package struct Catalogue: Sendable {
    package let database: Database

    /// Every store, by name.
    package func stores(logger: Logger) async throws -> [StoreRecord] {
        try await StoreQueries.all(on: database.client, logger: logger)
    }

    /// A store that must exist; `storeNotFound` otherwise.
    /// The store a `storeId` from a path or form names: 404 `store_not_found` when it is not an
    /// id or no such store exists.
    package func store(_ text: String, logger: Logger) async throws -> StoreRecord {
        try await store(try StoreID.parse(text, notFound: .storeNotFound), logger: logger)
    }

    package func store(_ id: StoreID, logger: Logger) async throws -> StoreRecord {
        guard let store = try await StoreQueries.store(id: id, on: database.client, logger: logger) else {
            throw CatalogueError.storeNotFound
        }
        return store
    }

    /// The store's aisles in walk order.
    package func aisles(of store: StoreID, logger: Logger) async throws -> [AisleRecord] {
        try await StoreQueries.aisles(store: store, on: database.client, logger: logger)
    }

    /// Typo-tolerant search, best first, or (empty text) the catalogue by name.
    package func search(_ search: ProductSearch, logger: Logger) async throws -> Page<ProductRecord> {
        try await ProductQueries.search(search, on: database, logger: logger)
    }

    /// One product (discontinued too), with its stock at `store` when given.
    package func product(_ id: ProductID, at store: StoreID? = nil, logger: Logger) async throws -> ProductRecord {
        guard let product = try await ProductQueries.product(id: id, store: store, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return product
    }

    /// The product with this barcode, with its stock at `store` when given.
    package func product(barcode: Barcode, at store: StoreID?, logger: Logger) async throws -> ProductRecord {
        guard let product = try await ProductQueries.product(barcode: barcode, store: store, on: database.client, logger: logger) else {
            throw CatalogueError.barcodeNotFound(barcode)
        }
        return product
    }

    /// A product's own page (issue 45): the product at `store` by its shop address, with its images.
    package func productPage(slug: String, at store: StoreID?, logger: Logger) async throws -> ProductRecord {
        guard slug.utf8.count <= 100,
            let product = try await ProductQueries.page(slug: slug, store: store, on: database.client, logger: logger)
        else { throw CatalogueError.productNotFound }
        return product
    }

    /// The product's image at `position` (0: the one listings show).
    package func image(of product: ProductID, position: Int = 0, logger: Logger) async throws -> ProductImage {
        guard (0...9).contains(position),
            let image = try await ImageQueries.image(product: product, position: position, on: database.client, logger: logger)
        else {
            throw CatalogueError.imageNotFound
        }
        return image
    }

    // MARK: The chain admin's edits: the catalogue is shared by every store, so the chain keeps it.

    package func create(_ draft: ProductDraft, logger: Logger) async throws -> ProductRecord {
        let id = try await ProductQueries.insert(draft, on: database.client, logger: logger)
        return try await product(id, logger: logger)
    }

    /// Applies the fields `change` has (`discontinued: true` discontinues it).
    package func update(_ id: ProductID, _ change: ProductChange, logger: Logger) async throws -> ProductRecord {
        guard try await ProductQueries.update(id: id, change, on: database.client, logger: logger) else {
            throw CatalogueError.productNotFound
        }
        return try await product(id, logger: logger)
    }

    /// Sets (or replaces) the product's image.
    package func setImage(_ image: ProductImage, of id: ProductID, logger: Logger) async throws -> ProductRecord {
        try await ImageQueries.store(image, product: id, on: database.client, logger: logger)
        return try await product(id, logger: logger)
    }
}
