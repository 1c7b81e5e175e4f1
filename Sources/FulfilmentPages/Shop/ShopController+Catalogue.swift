import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The shop's catalogue pages: `/shop` (search with typo tolerance, by category, or by a scanned
/// barcode: `searchProducts`, `getProductByBarcode`), `/shop/locate` (which aisle:
/// `locateProducts`), `/shop/stores` (`listStores`, `chooseStore`) and `/shop/favourites`
/// (`listFavourites`, `addFavourite`, `removeFavourite`). Each product shows its price, whether
/// the store has it now, and where it is ("Aisle 6 (Dairy), bay 1, shelf B").
extension ShopController {
    static let shopPageSize = 24

    func registerShopCatalogue(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop") { request, context in
            try await page(request, context, operation: "searchProducts") { visit in
                let place = try await shopPlace(visit)
                guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                return try await searchPage(visit, place: place, store: store)
            }
        }
        router.get("/shop/locate") { request, context in
            try await page(request, context, operation: "locateProducts") { visit in
                let place = try await shopPlace(visit)
                guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                return try await locatePage(visit, place: place, store: store)
            }
        }
        router.get("/shop/stores") { request, context in
            try await page(request, context, operation: "chooseStore") { visit in
                try await storesPage(visit, place: try await shopPlace(visit))
            }
        }
        router.post("/shop/store") { request, context in
            try await page(request, context, operation: "chooseStore") { visit in
                try await shopForm(
                    visit,
                    render: { notice, status in try await storesPage(visit, place: try await shopPlace(visit), notice: notice, status: status) }
                ) {
                    let store = try await services.catalogue.store(visit.form["storeId"] ?? "", logger: visit.logger)
                    try await services.favourites.chooseStore(store.id, for: visit.identity.userID, logger: visit.logger)
                    _ = try await services.carts.setStore(store.id, customer: visit.identity.userID, logger: visit.logger)
                    return "store"
                }
            }
        }
        router.get("/shop/favourites") { request, context in
            try await page(request, context, operation: "listFavourites") { visit in
                try await favouritesPage(visit, place: try await shopPlace(visit))
            }
        }
        for (path, operation, notice) in [
            ("/shop/favourites/add", "addFavourite", "favourite"), ("/shop/favourites/remove", "removeFavourite", "unfavourite"),
        ] {
            router.post(RouterPath(path)) { request, context in
                try await page(request, context, operation: operation) { visit in
                    try await shopForm(
                        visit,
                        render: { notice, status in
                            try await favouritesPage(visit, place: try await shopPlace(visit), notice: notice, status: status)
                        }
                    ) {
                        let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
                        if operation == "removeFavourite" {
                            try await services.favourites.remove(product, for: visit.identity.userID, logger: visit.logger)
                        } else {
                            try await services.favourites.add(product, for: visit.identity.userID, logger: visit.logger)
                        }
                        return notice
                    }
                }
            }
        }
    }

    private func searchPage(_ visit: PageVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
        let query = Self.query(visit.request)
        let text = query["q"] ?? ""
        let category = query.text("category")
        let cursor = query.text("cursor")
        var products: [ProductRecord] = []
        var next: String?
        var problem: Notice?
        if let code = query.text("barcode") {
            do {
                products = [try await services.catalogue.product(barcode: try Barcode(code), at: store.id, logger: visit.logger)]
            } catch {
                problem = Notice(ok: false, text: ErrorMiddleware<AppRequestContext>.apiError(for: error).message)
            }
        } else {
            do {
                let search = try ProductSearch(
                    text: text, storeID: store.id, category: category, limit: Self.shopPageSize, cursor: cursor)
                let page = try await services.catalogue.search(search, logger: visit.logger)
                (products, next) = (page.items, page.nextCursor)
            } catch {
                let refused = try Self.clientRefusal(error)
                problem = Notice(ok: false, text: refused.message)
            }
        }
        let categories = try await services.listings.categories(at: store.id, logger: visit.logger)
        let favourites = try await favouriteIDs(visit, store: store.id)
        let options = HTML.join(
            categories.map { item in
                "<option value=\"\(item.name)\"\(HTML(trusted: item.name == category ? " selected" : ""))>\(item.name) (\(item.productCount))</option>"
            })
        var more: HTML = .empty
        if let next {
            var components = URLComponents()
            components.path = "/shop"
            components.queryItems =
                [URLQueryItem(name: "q", value: text), URLQueryItem(name: "cursor", value: next)]
                + (category.map { [URLQueryItem(name: "category", value: $0)] } ?? [])
            more = "<p><a class=\"button secondary\" id=\"more\" href=\"\(components.string ?? "/shop")\">More results</a></p>"
        }
        let heading = text.isEmpty ? (category ?? "Everything at \(store.name)") : "Results for “\(text)”"
        return shopPage(
            "Shop", visit, place: place, notice: problem, status: .ok,
            body: """
                <h1>\(store.name)</h1>
                <p class="hint">Collecting from \([store.name, store.address].filter { !$0.isEmpty }.joined(separator: ", ")). <a href="/shop/stores">Change store</a></p>
                <form method="get" action="/shop" class="search" role="search" id="search">
                <label for="q">Search products</label>
                <input id="q" name="q" type="search" value="\(text)" maxlength="100" autocomplete="off">
                <label for="category">Category</label>
                <select id="category" name="category"><option value="">All categories</option>\(options)</select>
                <button type="submit" id="search-button">Search</button>
                <button type="button" class="secondary" id="scan-barcode" hidden>Scan a barcode</button>
                </form>
                <video id="barcode-view" hidden muted playsinline></video>
                <h2 id="results-heading">\(heading)</h2>
                \(productList(products, visit: visit, favourites: favourites, empty: "Nothing found. Check the spelling, or try fewer words."))
                \(more)
                """)
    }

    private func locatePage(_ visit: PageVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
        let text = Self.query(visit.request)["q"] ?? ""
        var found: [ProductRecord] = []
        var problem: Notice?
        if !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let search = try ProductSearch(text: text, storeID: store.id, category: nil, limit: Self.shopPageSize, cursor: nil)
                found = try await services.catalogue.search(search, logger: visit.logger).items
            } catch {
                let refused = try Self.clientRefusal(error)
                problem = Notice(ok: false, text: refused.message)
            }
        }
        let rows = HTML.join(
            found.map { product in
                """
                <li class="located"><strong>\(product.name)</strong> <span class="where">\(Self.whereText(product))</span>
                <span class="hint">\(Self.stockText(product))</span></li>
                """
            })
        let list: HTML =
            text.isEmpty
            ? .empty
            : found.isEmpty
                ? "<p class=\"hint\" id=\"locate-empty\">Nothing found at this store.</p>" : "<ul class=\"locate\" id=\"locate-results\">\(rows)</ul>"
        return shopPage(
            "Find it in store", visit, place: place, notice: problem,
            body: """
                <h1>Find it in store</h1>
                <p class="hint">Which aisle at \(store.name): type what you are looking for.</p>
                <form method="get" action="/shop/locate" class="search" role="search">
                <label for="locate-q">Product</label>
                <input id="locate-q" name="q" type="search" value="\(text)" maxlength="100">
                <button type="submit" id="locate-button">Find</button>
                </form>
                \(list)
                """)
    }

    private func storesPage(_ visit: PageVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let stores = try await services.catalogue.stores(logger: visit.logger)
        let fields = Self.shopFormFields(visit, back: "/shop")
        let items = HTML.join(
            stores.map { store in
                let current = store.id == place.store?.id
                return """
                    <li class="store\(HTML(trusted: current ? " current" : ""))"><form method="post" action="/shop/store">\(fields)
                    <input type="hidden" name="storeId" value="\(store.id)">
                    <strong>\(store.name)</strong> <span class="hint">\(store.address)</span>
                    \(current ? "<span class=\"status status-completed\">Your store</span>" : "<button type=\"submit\" class=\"secondary\" aria-label=\"Shop at \(store.name)\">Shop here</button>" as HTML)
                    </form></li>
                    """
            })
        return shopPage(
            "Choose a store", visit, place: place, notice: notice, status: status,
            body: """
                <h1>Choose your store</h1>
                <p class="hint">Prices, stock and aisles are each store's own; you collect your order there.</p>
                <ul class="stores" id="stores">\(items)</ul>
                """)
    }

    private func favouritesPage(_ visit: PageVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        let page = try await services.favourites.list(of: visit.identity.userID, at: place.store?.id, limit: 100, cursor: nil, logger: visit.logger)
        let products = page.items.map(\.0)
        return shopPage(
            "Favourites", visit, place: place, notice: notice, status: status,
            body: """
                <h1>Favourites</h1>
                \(productList(products, visit: visit, favourites: Set(products.map(\.id)), empty: "No favourites yet: tap ☆ Save on a product to keep it here."))
                """)
    }

    private func favouriteIDs(_ visit: PageVisit, store: StoreID) async throws -> Set<ProductID> {
        let page = try await services.favourites.list(of: visit.identity.userID, at: store, limit: 100, cursor: nil, logger: visit.logger)
        return Set(page.items.map(\.0.id))
    }

    /// Products as cards: name, price (the regular one struck through during a sale), stock,
    /// place in the store, a quantity and "Add to cart", and the favourite toggle.
    func productList(_ products: [ProductRecord], visit: PageVisit, favourites: Set<ProductID>, empty: String) -> HTML {
        guard !products.isEmpty else { return "<p class=\"hint\" id=\"no-results\">\(empty)</p>" }
        let fields = Self.shopFormFields(visit, back: Self.here(visit.request))
        let cards = HTML.join(
            products.map { product in
                let favourite = favourites.contains(product.id)
                let available = product.stock?.available ?? 0
                var price: HTML = "<strong>\(MoneyText.format(product.priceAmount, product.currency))</strong>"
                if let sale = product.sale {
                    price =
                        "\(price) <s aria-label=\"was\">\(MoneyText.format(sale.regularAmount, product.currency))</s> <span class=\"status status-completed\">Sale</span>"
                }
                let add: HTML =
                    available > 0 && !product.discontinued
                    ? """
                    <form method="post" action="/shop/cart/items" class="add" data-inline>\(fields)
                    <input type="hidden" name="productId" value="\(product.id)"><input type="hidden" name="mode" value="add">
                    <label for="qty-\(product.id)">Quantity</label>
                    <input id="qty-\(product.id)" name="quantity" type="number" inputmode="numeric" min="1" max="\(min(available, Cart.maximumQuantity))" value="1" class="qty">
                    <button type="submit" aria-label="Add \(product.name) to cart">Add to cart</button>
                    </form>
                    """
                    : "<p class=\"hint\">Not available to order now.</p>"
                return """
                    <li class="product" id="product-\(product.id)" data-product-id="\(product.id)">
                    <h3 class="product-name">\(product.name)</h3>
                    <p class="hint">\([product.brand, product.category].filter { !$0.isEmpty }.joined(separator: " · "))</p>
                    <p class="price">\(price)</p>
                    <p class="stock \(available > 0 ? "in" : "out")">\(Self.stockText(product))</p>
                    <p class="where">\(Self.whereText(product))</p>
                    \(add)
                    <form method="post" action="/shop/favourites/\(favourite ? "remove" : "add")" class="favourite">\(fields)
                    <input type="hidden" name="productId" value="\(product.id)">
                    <button type="submit" class="secondary" aria-pressed="\(favourite ? "true" : "false")" aria-label="\(favourite ? "Remove \(product.name) from favourites" : "Save \(product.name) to favourites")">\(favourite ? "★ Saved" : "☆ Save")</button>
                    </form>
                    </li>
                    """
            })
        return "<ul class=\"products\" id=\"products\">\(cards)</ul>"
    }

    static func stockText(_ product: ProductRecord) -> String {
        if product.discontinued { return "No longer sold" }
        let available = product.stock?.available ?? 0
        switch available {
        case 0: return "Out of stock"
        case 1...5: return "Only \(available) left"
        default: return "In stock"
        }
    }

    static func whereText(_ product: ProductRecord) -> String {
        product.stock?.location?.sentence ?? LocationRecord.notLocatedSentence
    }
}
