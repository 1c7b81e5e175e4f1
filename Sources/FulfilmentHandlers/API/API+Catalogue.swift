import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// Stores, aisles, the catalogue (search, lookups, images) and the locate page: public routes,
/// plus the chain admin's product edits. Rules live in `Catalogue/`, SQL in its `*Queries`.
extension API {
    /// The chain's and a store's own minimum ages (their routes are with the ID checks).

    func listStores(_ input: Operations.ListStores.Input) async throws -> Operations.ListStores.Output {
        let stores = try await services.catalogue.stores(logger: logger)
        return .ok(.init(body: .json(.init(items: stores.map(Components.Schemas.Store.init), nextCursor: nil))))
    }

    func getStore(_ input: Operations.GetStore.Input) async throws -> Operations.GetStore.Output {
        .ok(.init(body: .json(.init(try await existingStore(input.path.storeId)))))
    }

    func listAisles(_ input: Operations.ListAisles.Input) async throws -> Operations.ListAisles.Output {
        let store = try await existingStore(input.path.storeId)
        let aisles = try await services.catalogue.aisles(of: store.id, logger: logger)
        return .ok(.init(body: .json(.init(items: try aisles.map(Components.Schemas.Aisle.init), nextCursor: nil))))
    }

    func searchProducts(_ input: Operations.SearchProducts.Input) async throws -> Operations.SearchProducts.Output {
        let storeID = try await optionalStore(input.query.storeId)
        let search = try ProductSearch(
            text: input.query.q, storeID: storeID, category: input.query.category, onSale: input.query.onSale ?? false,
            newArrivals: input.query.new ?? false, discontinued: input.query.discontinued ?? false,
            sort: input.query.sort.flatMap { ProductSort(rawValue: $0.rawValue) },
            limit: try pageSize(input.query.limit), cursor: input.query.cursor)
        let page = try await services.catalogue.search(search, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.Product.init), nextCursor: page.nextCursor))))
    }

    func getProduct(_ input: Operations.GetProduct.Input) async throws -> Operations.GetProduct.Output {
        let storeID = try await optionalStore(input.query.storeId)
        let id = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        return .ok(.init(body: .json(try .init(try await services.catalogue.product(id, at: storeID, logger: logger)))))
    }

    func getProductByBarcode(_ input: Operations.GetProductByBarcode.Input) async throws -> Operations.GetProductByBarcode.Output {
        let barcode = try Barcode(input.path.code)
        let storeID = try await optionalStore(input.query.storeId)
        return .ok(.init(body: .json(try .init(try await services.catalogue.product(barcode: barcode, at: storeID, logger: logger)))))
    }

    func locateProducts(_ input: Operations.LocateProducts.Input) async throws -> Operations.LocateProducts.Output {
        let store = try await existingStore(input.path.storeId)
        // Where everything for a recipe is (issue 31), in aisle walk order, on one page.
        if let recipe = input.query.recipeId {
            guard input.query.q == nil else { throw CatalogueError.invalidField("q", "Give q or recipeId, not both.") }
            let found = try await services.recipes.locate(try RecipeID.parse(recipe), at: store.id, viewer: .current, logger: logger)
            let items = try found.map { try Components.Schemas.LocateResult($0.0, ingredient: $0.1) }
            return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
        }
        guard let q = input.query.q else { throw CatalogueError.invalidField("q", "Say what to look for, or give a recipeId.") }
        let search = try ProductSearch(
            text: q, storeID: store.id, category: nil, limit: try pageSize(input.query.limit), cursor: input.query.cursor)
        guard !search.text.isEmpty else { throw CatalogueError.invalidField("q", "Say what to look for.") }
        let page = try await services.catalogue.search(search, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map { try Components.Schemas.LocateResult($0) }, nextCursor: page.nextCursor))))
    }

    func getProductImage(_ input: Operations.GetProductImage.Input) async throws -> Operations.GetProductImage.Output {
        let id = try ProductID.parse(input.path.productId, notFound: .imageNotFound)
        let image = try await services.catalogue.image(of: id, logger: logger)
        let body = HTTPBody(image.bytes)
        switch image.kind {
        case .png: return .ok(.init(headers: .init(eTag: image.etag), body: .png(body)))
        case .jpeg: return .ok(.init(headers: .init(eTag: image.etag), body: .jpeg(body)))
        }
    }

    func getProductGalleryImage(_ input: Operations.GetProductGalleryImage.Input) async throws -> Operations.GetProductGalleryImage.Output {
        let id = try ProductID.parse(input.path.productId, notFound: .imageNotFound)
        let image = try await services.catalogue.image(of: id, position: input.path.position, logger: logger)
        let body = HTTPBody(image.bytes)
        switch image.kind {
        case .png: return .ok(.init(headers: .init(eTag: image.etag), body: .png(body)))
        case .jpeg: return .ok(.init(headers: .init(eTag: image.etag), body: .jpeg(body)))
        }
    }

    // MARK: Admin: the catalogue is shared by every store, so the chain keeps it.

    func createProduct(_ input: Operations.CreateProduct.Input) async throws -> Operations.CreateProduct.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let draft = try ProductDraft(
            sku: body.sku, barcode: body.barcode, name: body.name, brand: body.brand, description: body.description,
            category: body.category, price: try ProductRules.price(amount: body.price.amount, currency: body.price.currency), size: body.size,
            taxClass: try body.taxClass.map { try TaxClass.matching($0.rawValue) } ?? .standard)
        return .created(.init(body: .json(try .init(try await services.catalogue.create(draft, logger: logger)))))
    }

    func updateProduct(_ input: Operations.UpdateProduct.Input) async throws -> Operations.UpdateProduct.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let id = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let change = ProductChange(
            sku: try body.sku.map(ProductRules.sku),
            barcode: try body.barcode.map { text throws(CatalogueError) in try ProductRules.barcode(text) },
            name: try body.name.map(ProductRules.name),
            brand: try body.brand.map { text throws(CatalogueError) in try ProductRules.text(text, field: "brand", limit: 100) },
            description: try body.description.map { text throws(CatalogueError) in
                try ProductRules.text(text, field: "description", limit: 2000)
            },
            category: try body.category.map { text throws(CatalogueError) in try ProductRules.text(text, field: "category", limit: 100) },
            price: try body.price.map { price throws(CatalogueError) in try ProductRules.price(amount: price.amount, currency: price.currency) },
            discontinued: body.discontinued, size: try body.size.map(ProductRules.size),
            taxClass: try body.taxClass.map { try TaxClass.matching($0.rawValue) })
        return .ok(.init(body: .json(try .init(try await services.catalogue.update(id, change, logger: logger)))))
    }

    func discontinueProduct(_ input: Operations.DiscontinueProduct.Input) async throws -> Operations.DiscontinueProduct.Output {
        let id = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        return .ok(.init(body: .json(try .init(try await services.catalogue.update(id, ProductChange(discontinued: true), logger: logger)))))
    }

    func uploadProductImage(_ input: Operations.UploadProductImage.Input) async throws -> Operations.UploadProductImage.Output {
        let id = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let (body, declared): (HTTPBody, ProductImage.Kind?) =
            switch input.body {
            case .png(let body): (body, .png)
            case .jpeg(let body): (body, .jpeg)
            case .binary(let body): (body, nil)
            }
        let image = try await uploadedImage(body, declared: declared)
        return .ok(.init(body: .json(try .init(try await services.catalogue.setImage(image, of: id, logger: logger)))))
    }

    func uploadProductGalleryImage(_ input: Operations.UploadProductGalleryImage.Input) async throws
        -> Operations.UploadProductGalleryImage.Output
    {
        let id = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let (body, declared): (HTTPBody, ProductImage.Kind?) =
            switch input.body {
            case .png(let body): (body, .png)
            case .jpeg(let body): (body, .jpeg)
            case .binary(let body): (body, nil)
            }
        let image = try await uploadedImage(body, declared: declared)
        let product = try await services.catalogue.placeImage(
            image, of: id, at: input.path.position, altText: input.query.altText, logger: logger)
        return .ok(.init(body: .json(try .init(product))))
    }

    func updateProductGalleryImage(_ input: Operations.UpdateProductGalleryImage.Input) async throws
        -> Operations.UpdateProductGalleryImage.Output
    {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let id = try ProductID.parse(input.path.productId, notFound: .imageNotFound)
        let product = try await services.catalogue.changeImage(
            of: id, at: input.path.position, altText: body.altText, to: body.position, logger: logger)
        return .ok(.init(body: .json(try .init(product))))
    }

    func deleteProductGalleryImage(_ input: Operations.DeleteProductGalleryImage.Input) async throws
        -> Operations.DeleteProductGalleryImage.Output
    {
        let id = try ProductID.parse(input.path.productId, notFound: .imageNotFound)
        return .ok(.init(body: .json(try .init(try await services.catalogue.removeImage(of: id, at: input.path.position, logger: logger)))))
    }

    /// An uploaded image (a product's, a news item's, a recipe's), read only up to the limit and
    /// checked by its bytes (`ProductImage`).
    func uploadedImage(_ body: HTTPBody, declared: ProductImage.Kind?) async throws -> ProductImage {
        var bytes = Data()
        for try await chunk in body {
            bytes.append(contentsOf: chunk)
            // Stop reading as soon as it is too large; never hold more than the limit.
            if bytes.count > ProductImage.maximumBytes { throw CatalogueError.imageTooLarge(limit: ProductImage.maximumBytes) }
        }
        return try ProductImage(bytes: bytes, declared: declared)
    }

    // MARK: Helpers

    /// The store named by a path or query id, or 404.
    func existingStore(_ text: String) async throws -> StoreRecord {
        try await services.catalogue.store(text, logger: logger)
    }

    /// The store of an optional `storeId` query parameter: nil when absent, 404 when unknown.
    func optionalStore(_ text: String?) async throws -> StoreID? {
        guard let text else { return nil }
        return try await existingStore(text).id
    }
}
