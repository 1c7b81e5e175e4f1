import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The catalogue in the console (issue 46), `/console/products`: the chain's admin adds and
/// edits products (`createProduct`, `updateProduct`, `setProductMinimumAge`), their images
/// (`uploadProductGalleryImage`, `updateProductGalleryImage`, `deleteProductGalleryImage`) and
/// discontinues or brings one back; a store's manager reads the catalogue their store carries
/// and keeps its own price (`setStorePrice`, `deleteStorePrice`) and the product's place
/// (`setStockLocation`). Each form is its API operation through the same domain services.
extension ConsoleController {
    var prices: Prices { services.prices }

    func registerProducts(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/products") { request, context in
            let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
            return try await page(request, context, operation: Self.catalogueOperation(session), session: session, store: { $0.storeID }) { visit in
                try await productsPage(visit, query: ConsoleForm(encoded: request.uri.query ?? ""))
            }
        }
        router.get("/console/products/new") { request, context in
            try await page(request, context, operation: "createProduct") { visit in
                try await newProductPage(visit, notice: nil, fields: nil)
            }
        }
        router.post("/console/products") { request, context in
            try await page(request, context, operation: "createProduct") { visit in
                do {
                    let created = try await catalogue.create(try Self.productDraft(visit.form), logger: visit.logger)
                    return try await productPage(visit, id: created.id, notice: Notice(ok: true, text: "\(created.name) was added to the catalogue."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await newProductPage(
                        visit, notice: Notice(ok: false, text: refused.message), fields: visit.form, status: refused.status)
                }
            }
        }
        router.get("/console/products/:productId") { request, context in
            let product = context.parameters.get("productId") ?? ""
            let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
            return try await page(request, context, operation: Self.catalogueOperation(session), session: session, store: { $0.storeID }) { visit in
                try await productPage(visit, id: try ProductID.parse(product, notFound: .productNotFound), notice: nil)
            }
        }
        registerProductEdits(on: router)
        registerStoreProductEdits(on: router)
    }

    /// The chain admin's forms on a product's page.
    private func registerProductEdits(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/products/:productId") { request, context in
            try await productForm(request, context, operation: "updateProduct", keepTyped: true) { visit, id in
                let draft = try Self.productDraft(visit.form)
                let saved = try await catalogue.update(
                    id,
                    ProductChange(
                        sku: draft.sku, barcode: .some(draft.barcode), name: draft.name, brand: draft.brand, description: draft.description,
                        category: draft.category, price: draft.price, size: draft.size, taxClass: draft.taxClass), logger: visit.logger)
                return "Saved \(saved.name) at \(MoneyText.format(saved.priceAmount, saved.currency))."
            }
        }
        router.post("/console/products/:productId/minimum-age") { request, context in
            try await productForm(request, context, operation: "setProductMinimumAge") { visit, id in
                let age = try await minimumAges.setChainWide(
                    try visit.form.int("minimumAge", label: "A minimum age", in: ProductMinimumAge.range), product: id, logger: visit.logger)
                return age.map { "Sold only to customers aged \($0) or over, in every store." } ?? "Sold to anyone (no minimum age)."
            }
        }
        router.post("/console/products/:productId/discontinue") { request, context in
            try await productForm(request, context, operation: "discontinueProduct") { visit, id in
                guard visit.form.text("confirm") == "yes" else {
                    throw APIError.invalidField("confirm", "Tick “Stop selling it in every store” to discontinue it.")
                }
                let product = try await catalogue.update(id, ProductChange(discontinued: true), logger: visit.logger)
                return "\(product.name) is discontinued: no store sells it, and search leaves it out."
            }
        }
        router.post("/console/products/:productId/restore") { request, context in
            try await productForm(request, context, operation: "updateProduct") { visit, id in
                let product = try await catalogue.update(id, ProductChange(discontinued: false), logger: visit.logger)
                return "\(product.name) is on sale again."
            }
        }
        router.post("/console/products/:productId/images") { request, context in
            try await productForm(request, context, operation: "uploadProductGalleryImage") { visit, id in
                guard let file = visit.form.files["image"], !file.data.isEmpty else {
                    throw CatalogueError.invalidField("image", "Choose a JPEG, PNG or WebP image to add.")
                }
                let image = try ProductImage(bytes: file.data, declared: nil)
                // The next place: the gallery as it is now (a gap or a race is the query's refusal).
                let product = try await catalogue.product(id, logger: visit.logger)
                let next = try await catalogue.productPage(slug: product.slug, at: nil, logger: visit.logger).gallery.count
                _ = try await catalogue.placeImage(image, of: id, at: next, altText: visit.form["altText"] ?? "", logger: visit.logger)
                return "The image was added, \(Self.ordinal(next + 1)) of the product's images."
            }
        }
        router.post("/console/products/:productId/images/:position") { request, context in
            let position = context.parameters.get("position") ?? ""
            return try await productForm(request, context, operation: "updateProductGalleryImage") { visit, id in
                let from = try Self.imagePosition(position)
                let target = try visit.form.int("position", label: "The place", in: Catalogue.galleryPositions)
                _ = try await catalogue.changeImage(of: id, at: from, altText: visit.form["altText"] ?? "", to: target, logger: visit.logger)
                return "The image was saved."
            }
        }
        router.post("/console/products/:productId/images/:position/delete") { request, context in
            let position = context.parameters.get("position") ?? ""
            return try await productForm(request, context, operation: "deleteProductGalleryImage") { visit, id in
                _ = try await catalogue.removeImage(of: id, at: try Self.imagePosition(position), logger: visit.logger)
                return "The image was removed."
            }
        }
    }

    /// A store manager's forms on a product's page: their store's own price and its place.
    private func registerStoreProductEdits(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/products/:productId/price") { request, context in
            try await productForm(request, context, operation: "setStorePrice", keepTyped: true) { visit, id in
                let scope = try StoreScope(staff: visit.identity)
                let current = try await prices.at(scope, product: id, logger: visit.logger)
                guard let amount = visit.form.text("price").flatMap(Self.saleAmount) else {
                    throw CatalogueError.invalidField("price", "Write the price as an amount such as 12.50.")
                }
                let price = try await prices.set(
                    Money(amount: amount, currency: current.catalog.currency), product: id, by: visit.identity.userID, in: scope,
                    logger: visit.logger)
                return "This store now charges \(MoneyText.format(price.holding))."
            }
        }
        router.post("/console/products/:productId/price/delete") { request, context in
            try await productForm(request, context, operation: "deleteStorePrice") { visit, id in
                let price = try await prices.remove(product: id, in: try StoreScope(staff: visit.identity), logger: visit.logger)
                return "This store charges the chain's price again, \(MoneyText.format(price.catalog))."
            }
        }
        router.post("/console/products/:productId/place") { request, context in
            try await productForm(request, context, operation: "setStockLocation") { visit, id in
                let location = try LocationDraft(
                    aisleCode: visit.form["aisleCode"] ?? "", bay: try visit.form.int("bay", label: "A bay", in: LocationDraft.bays),
                    shelf: visit.form.text("shelf"))
                try await stock.setLocation(location, product: id, in: try StoreScope(staff: visit.identity), logger: visit.logger)
                return "Moved to aisle \(location.aisleCode)."
            }
        }
    }

    /// The admin keeps the catalogue; a manager reads what their store carries, with its prices.
    static func catalogueOperation(_ session: ConsoleSession?) -> String {
        session?.identity.role == .admin ? "updateProduct" : "setStorePrice"
    }

    /// A form on a product's page: the operation's check (for the caller's own store, for a
    /// store's operation), then `body`, whose sentence, or the refusal's, is shown above the page
    /// drawn again; `keepTyped` keeps what a refused form sent in its fields.
    private func productForm(
        _ request: Request, _ context: AppRequestContext, operation: String, keepTyped: Bool = false,
        _ body: @escaping @Sendable (PageVisit, ProductID) async throws -> String
    ) async throws -> Response {
        let product = context.parameters.get("productId") ?? ""
        return try await page(request, context, operation: operation, store: { $0.storeID }) { visit in
            let id = try ProductID.parse(product, notFound: .productNotFound)
            do {
                return try await productPage(visit, id: id, notice: Notice(ok: true, text: try await body(visit, id)))
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await productPage(
                    visit, id: id, notice: Notice(ok: false, text: refused.message), typed: keepTyped ? visit.form : nil, status: refused.status)
            }
        }
    }

    /// The fields of the product form, checked as `POST /v1/products` checks them.
    static func productDraft(_ form: ConsoleForm) throws -> ProductDraft {
        guard let amount = form.text("price").flatMap(Self.saleAmount) else {
            throw CatalogueError.invalidField("price", "Write the price as an amount such as 12.50.")
        }
        return try ProductDraft(
            sku: form["sku"] ?? "", barcode: form["barcode"], name: form["name"] ?? "", brand: form["brand"],
            description: form["description"], category: form["category"],
            price: try ProductRules.price(amount: amount, currency: form.text("currency") ?? ""), size: form["size"],
            taxClass: try Self.taxClass(form.text("taxClass")))
    }

    /// The form's tax class: standard when not sent, else one of the four.
    static func taxClass(_ text: String?) throws(CatalogueError) -> TaxClass {
        guard let text, !text.isEmpty else { return .standard }
        guard let taxClass = TaxClass(rawValue: text) else {
            throw .invalidField("taxClass", "Choose the tax: standard, reduced, zero-rated or exempt.")
        }
        return taxClass
    }

    /// An image's place from the address: one a gallery may have, else not found.
    private static func imagePosition(_ text: String) throws(CatalogueError) -> Int {
        guard text.utf8.count <= 2, let position = Int(text), Catalogue.galleryPositions.contains(position) else { throw .imageNotFound }
        return position
    }

    func productsPage(_ visit: PageVisit, query: ConsoleForm, notice: Notice? = nil) async throws -> Response {
        let isAdmin = visit.identity.role == .admin
        let store = isAdmin ? nil : visit.identity.storeID
        let text = query["q"] ?? ""
        let category = query.text("category")
        let discontinued = query["show"] == "discontinued"
        let search = try ProductSearch(
            text: text, storeID: store, category: category, discontinued: discontinued, sort: .name, limit: 50, cursor: query.text("cursor"))
        let page = try await catalogue.search(search, logger: visit.logger)
        let categories = try await services.listings.categories(at: store, logger: visit.logger)
        return ProductsView.list(
            session: visit.session, notice: notice,
            listing: .init(
                text: text, category: category, discontinued: discontinued, products: page.items, nextCursor: page.nextCursor,
                categories: categories),
            isAdmin: isAdmin
        ).response()
    }

    func newProductPage(_ visit: PageVisit, notice: Notice?, fields: ConsoleForm?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let categories = try await services.listings.categories(at: nil, logger: visit.logger)
        let currency = try await catalogue.stores(logger: visit.logger).first?.currency ?? "JMD"
        return ProductsView.new(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice,
            fields: fields ?? ProductsView.fields(nil, minimumAge: nil, currency: currency), categories: categories
        ).response(status: status)
    }

    /// A product's page: the admin's editor, or a manager's view with their store's price and place.
    func productPage(
        _ visit: PageVisit, id: ProductID, notice: Notice?, typed: ConsoleForm? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let isAdmin = visit.identity.role == .admin
        let scope = try isAdmin ? StoreScope(managerOrAdmin: visit.identity) : StoreScope(staff: visit.identity)
        let product = try await catalogue.product(id, at: scope.store, logger: visit.logger)
        let gallery = try await catalogue.productPage(slug: product.slug, at: nil, logger: visit.logger).gallery
        let ages = try await minimumAges.at(scope, product: id, logger: visit.logger)
        let storePrice = isAdmin ? nil : try await prices.at(scope, product: id, logger: visit.logger)
        let aisles = try await scope.store.asyncMap { try await catalogue.aisles(of: $0, logger: visit.logger) } ?? []
        let categories = isAdmin ? try await services.listings.categories(at: nil, logger: visit.logger) : []
        var fields = ProductsView.fields(product, minimumAge: ages.chain, currency: product.currency)
        if let typed {
            for (name, value) in typed.fields { fields.fields[name == "price" && !isAdmin ? "storePrice" : name] = value }
        }
        return ProductsView.product(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice,
            details: .init(product: product, gallery: gallery, ages: ages, storePrice: storePrice, aisles: aisles), fields: fields,
            categories: categories, isAdmin: isAdmin
        ).response(status: status)
    }
}
