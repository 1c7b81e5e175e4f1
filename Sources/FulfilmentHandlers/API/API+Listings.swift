import Foundation
import FulfilmentDomain

/// The listings a shop shows beside search (issue 26): the categories with their counts and the
/// best price of a scanned barcode. Public routes; rules live in `Catalogue/Listings.swift`, SQL
/// in `CategoryQueries` and `BestPriceQueries`.
extension API {

    func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
        let store = try await optionalStore(input.query.storeId)
        let categories = try await services.listings.categories(at: store, logger: logger)
        let items = categories.map {
            Components.Schemas.Category(
                name: $0.name, productCount: $0.productCount, description: $0.description,
                imageUrl: $0.imageProductID.map { "/v1/products/\($0)/image" })
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
    }

    func putCategoryDetails(_ input: Operations.PutCategoryDetails.Input) async throws -> Operations.PutCategoryDetails.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let image = try body.imageProductId.map { text throws(CatalogueError) in
            guard let id = ProductID(text) else { throw .invalidField("imageProductId", "That is not a product with an image.") }
            return id
        }
        let category = try await services.catalogue.setCategoryDetails(
            input.path.category, description: body.description, image: image, logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        name: category.name, productCount: category.productCount, description: category.description,
                        imageUrl: category.imageProductID.map { "/v1/products/\($0)/image" }))))
    }

    func listBestPrices(_ input: Operations.ListBestPrices.Input) async throws -> Operations.ListBestPrices.Output {
        let barcode = try Barcode(input.path.code)
        let near = try input.query.near.map { text throws(CatalogueError) in try GeoPoint.parse(text, field: "near") }
        let offers = try await services.listings.bestPrices(barcode: barcode, near: near, logger: logger)
        return .ok(.init(body: .json(.init(items: offers.map(Components.Schemas.BestPrice.init), nextCursor: nil))))
    }
}

extension Components.Schemas.BestPrice {
    init(_ offer: BestPrice) {
        let onSale = (offer.regularAmount ?? 0) > offer.priceAmount
        self.init(
            storeId: offer.storeID.description, storeCode: offer.storeCode, storeName: offer.storeName,
            price: .init(amount: offer.priceAmount, currency: offer.currency),
            regularPrice: onSale ? .init(amount: offer.regularAmount ?? 0, currency: offer.currency) : nil,
            saleEndsAt: onSale ? offer.saleEndsAt : nil, available: offer.available, inStock: offer.available > 0,
            distanceMetres: offer.distanceMetres)
    }
}
