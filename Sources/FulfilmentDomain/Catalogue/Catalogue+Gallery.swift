import Foundation
import Logging

/// The chain's admin keeps each product's gallery (issue 45): several images in order, each
/// with a text alternative, and what the shop says about each category.
extension Catalogue {
    /// The most positions a gallery has (0 to 9; the database checks the same).
    package static let galleryPositions = 0...9

    /// Stores `image` at `position` (one the product has, or the next), with its text
    /// alternative (nil keeps the one a replaced image had).
    package func placeImage(
        _ image: ProductImage, of product: ProductID, at position: Int, altText: String?, logger: Logger
    ) async throws -> ProductRecord {
        guard Self.galleryPositions.contains(position) else { throw CatalogueError.imageNotFound }
        let text = try altText.map { text throws(CatalogueError) in try Self.altText(text) }
        _ = try await self.product(product, logger: logger)
        if let held = try await GalleryQueries.place(image, product: product, position: position, altText: text, on: database.client, logger: logger)
        {
            throw CatalogueError.imagePosition(next: held)
        }
        return try await self.product(product, logger: logger)
    }

    /// Changes the text of the image at `position`, or moves it to `target`.
    package func changeImage(
        of product: ProductID, at position: Int, altText: String?, to target: Int?, logger: Logger
    ) async throws -> ProductRecord {
        guard Self.galleryPositions.contains(position) else { throw CatalogueError.imageNotFound }
        if let target, !Self.galleryPositions.contains(target) {
            throw CatalogueError.invalidField("position", "A position is 0 to 9.")
        }
        let text = try altText.map { text throws(CatalogueError) in try Self.altText(text) }
        guard try await GalleryQueries.change(product: product, position: position, altText: text, to: target, on: database.client, logger: logger)
        else { throw CatalogueError.imageNotFound }
        return try await self.product(product, logger: logger)
    }

    /// Removes the image at `position`; the ones after it move up.
    package func removeImage(of product: ProductID, at position: Int, logger: Logger) async throws -> ProductRecord {
        guard Self.galleryPositions.contains(position),
            try await GalleryQueries.remove(product: product, position: position, on: database.client, logger: logger)
        else { throw CatalogueError.imageNotFound }
        return try await self.product(product, logger: logger)
    }

    /// Writes a category's description and picture (the first image of `image`, nil for none).
    package func setCategoryDetails(_ name: String, description: String, image: ProductID?, logger: Logger) async throws -> CategoryCount {
        let name = try Self.plain(name, field: "category", limit: 100)
        guard !name.isEmpty else { throw CatalogueError.invalidField("category", "A category is 1 to 100 characters.") }
        let description = try Self.plain(description, field: "description", limit: 1000)
        switch try await CategoryQueries.setDetails(name: name, description: description, image: image, on: database.client, logger: logger) {
        case .stored(let category): return category
        case .noSuchProduct: throw CatalogueError.productNotFound
        case .productWithoutImage: throw CatalogueError.productWithoutImage
        }
    }

    /// A text alternative: at most 300 characters as PostgreSQL counts them (code points).
    static func altText(_ text: String) throws(CatalogueError) -> String {
        try plain(text, field: "altText", limit: 300)
    }

    /// Trimmed text of at most `limit` code points (the tables' CHECKs count so) and no NUL.
    static func plain(_ raw: String, field: String, limit: Int) throws(CatalogueError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.unicodeScalars.count <= limit, !text.unicodeScalars.contains("\0") else {
            throw .invalidField(field, "The \(field) is at most \(limit) characters.")
        }
        return text
    }
}
