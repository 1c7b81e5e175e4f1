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
            try await shopPage(request, context, operation: "searchProducts") { visit in
                let place = try await shopPlace(visit)
                guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                return try await searchPage(visit, place: place, store: store)
            }
        }
        for (path, offers) in [("/shop/offers", true), ("/shop/new", false)] {
            router.get(RouterPath(path)) { request, context in
                try await shopPage(request, context, operation: "searchProducts") { visit in
                    let place = try await shopPlace(visit)
                    guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                    return try await listingPage(visit, place: place, store: store, offers: offers)
                }
            }
        }
        router.get("/shop/locate") { request, context in
            try await shopPage(request, context, operation: "locateProducts") { visit in
                let place = try await shopPlace(visit)
                guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                return try await locatePage(visit, place: place, store: store)
            }
        }
        router.get("/shop/stores") { request, context in
            try await shopPage(request, context, operation: "chooseStore") { visit in
                try await storesPage(visit, place: try await shopPlace(visit))
            }
        }
        router.post("/shop/store") { request, context in
            try await shopPage(request, context, operation: "chooseStore") { visit in
                do {
                    let store = try await services.catalogue.store(visit.form["storeId"] ?? "", logger: visit.logger)
                    guard let customer = visit.customer else {
                        // A visitor's choice is a cookie, and their cart (if any) moves with it.
                        let before = try await shopPlace(visit)
                        try await services.guestCarts.setStore(store.id, token: visit.guestToken, logger: visit.logger)
                        var after = before
                        after.cart = try await services.guestCarts.cart(token: visit.guestToken, store: store.id, logger: visit.logger)
                        after.store = store
                        let changes = before.store?.id == store.id ? [] : after.cart.changes(since: before.cart)
                        var response =
                            changes.isEmpty
                            ? ConsolePage.redirect(Self.backPath(visit.form["back"], notice: "store"))
                            : cartPage(visit, place: after, notice: Self.storeChanged(changes))
                        response.setCookie(ShopVisit.storeCookie(store.id, secure: secureCookies))
                        return response
                    }
                    let before = try await services.carts.cart(customer: customer, logger: visit.logger)
                    try await services.favourites.chooseStore(store.id, for: customer, logger: visit.logger)
                    let after = try await services.carts.setStore(store.id, customer: customer, logger: visit.logger)
                    // The cart is priced at its store: what the move changed is said on the cart itself.
                    let changes = before.storeID == store.id ? [] : after.changes(since: before)
                    guard changes.isEmpty else {
                        return cartPage(visit, place: try await shopPlace(visit), notice: Self.storeChanged(changes))
                    }
                    return ConsolePage.redirect(Self.backPath(visit.form["back"], notice: "store"))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await storesPage(
                        visit, place: try await shopPlace(visit), notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.get("/shop/favourites") { request, context in
            try await page(request, context, operation: "listFavourites") { visit in
                try await favouritesPage(ShopVisit(visit), place: try await shopPlace(ShopVisit(visit)))
            }
        }
        for (path, operation, notice) in [
            ("/shop/favourites/add", "addFavourite", "favourite"), ("/shop/favourites/remove", "removeFavourite", "unfavourite"),
        ] {
            router.post(RouterPath(path)) { request, context in
                try await page(request, context, operation: operation) { visit in
                    try await shopForm(
                        ShopVisit(visit),
                        render: { notice, status in
                            try await favouritesPage(ShopVisit(visit), place: try await shopPlace(ShopVisit(visit)), notice: notice, status: status)
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

    private func searchPage(_ visit: ShopVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
        let query = Self.query(visit.request)
        let text = query["q"] ?? ""
        let category = query.text("category")
        let cursor = query.text("cursor")
        if query["q"] == nil, category == nil, cursor == nil, query.text("barcode") == nil, query["all"] == nil {
            return try await homePage(visit, place: place, store: store)
        }
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
        return ShopSearchView.page(
            frame: shopFrame(visit, place: place, notice: problem), store: store, text: text, category: category, categories: categories,
            products: products, favourites: favourites, next: next, back: Self.here(visit.request)
        ).response()
    }

    /// The shop's front page (``ShopHomeView``): a few offers and new arrivals, the categories.
    private func homePage(_ visit: ShopVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
        let offers = try await services.catalogue.search(
            try ProductSearch(text: nil, storeID: store.id, category: nil, onSale: true, sort: .price, limit: 6, cursor: nil), logger: visit.logger)
        let newIn = try await services.catalogue.search(
            try ProductSearch(text: nil, storeID: store.id, category: nil, newArrivals: true, sort: .newest, limit: 6, cursor: nil),
            logger: visit.logger)
        let categories = try await services.listings.categories(at: store.id, logger: visit.logger)
        return ShopHomeView.page(
            frame: shopFrame(visit, place: place), store: store, categories: categories, offers: offers.items, newIn: newIn.items,
            favourites: try await favouriteIDs(visit, store: store.id)
        ).response()
    }

    /// Offers (`?onSale=true`) or new arrivals (`?new=true`) at the store, sorted as asked.
    private func listingPage(_ visit: ShopVisit, place: ShopPlace, store: StoreRecord, offers: Bool) async throws -> Response {
        let query = Self.query(visit.request)
        let sorts: [ProductSort] = offers ? [.price, .name, .newest] : [.newest, .price, .name]
        let sort = ProductSort(rawValue: query["sort"] ?? "").flatMap { sorts.contains($0) ? $0 : nil } ?? sorts[0]
        var notice: Notice?
        var products: [ProductRecord] = []
        var next: String?
        do {
            let page = try await services.catalogue.search(
                try ProductSearch(
                    text: nil, storeID: store.id, category: nil, onSale: offers, newArrivals: !offers, sort: sort, limit: Self.shopPageSize,
                    cursor: query.text("cursor")), logger: visit.logger)
            (products, next) = (page.items, page.nextCursor)
        } catch {
            notice = Notice(ok: false, text: try Self.clientRefusal(error).message)
        }
        return ShopListingView.page(
            frame: shopFrame(visit, place: place, notice: notice), store: store,
            title: offers ? "Offers at \(store.name)" : "New in at \(store.name)",
            intro: offers ? "Everything on sale at \(store.name) now, with what you save." : "What \(store.name) added to its shelves lately.",
            path: offers ? "/shop/offers" : "/shop/new", sort: sort, sorts: sorts, products: products,
            favourites: try await favouriteIDs(visit, store: store.id), next: next,
            empty: offers ? "No offers at the moment." : "Nothing new at the moment."
        ).response()
    }

    private func locatePage(_ visit: ShopVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
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
        return ShopLocateView.page(frame: shopFrame(visit, place: place, notice: problem), store: store, text: text, found: found).response()
    }

    /// The store finder (``ShopStoresView``): nearest first from `?near=lat,lon` (the browser's
    /// location, sent only when the shopper asked), else the stores of `?town=` first (by name or
    /// address) and the rest nearest to the first of them, else by name.
    private func storesPage(_ visit: ShopVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        let query = Self.query(visit.request)
        let town = String((query.text("town") ?? "").prefix(100))
        var notice = notice
        var near: GeoPoint?
        if let text = query.text("near") {
            do { near = try GeoPoint.parse(text, field: "near") } catch { notice = notice ?? Notice(ok: false, text: error.apiError.message) }
        }
        let stores = try await services.catalogue.stores(logger: visit.logger)
        let matching = town.isEmpty ? [] : stores.filter { "\($0.name) \($0.address)".localizedCaseInsensitiveContains(town) }
        let from = near ?? matching.first?.location
        var entries: [ShopStoresView.Entry] = []
        for store in stores {
            let distance = from.flatMap { from in store.location.map { from.metres(to: $0) } }
            let week = try await services.pickupSlots.openingWeek(store: store.id, now: services.clock(), logger: visit.logger)
            entries.append(ShopStoresView.Entry(store: store, distance: distance, week: week))
        }
        let matched = Set(matching.map(\.id))
        entries.sort { a, b in
            let (aMatch, bMatch) = (matched.contains(a.store.id), matched.contains(b.store.id))
            if aMatch != bMatch { return aMatch }
            switch (a.distance, b.distance) {
            case (let x?, let y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.store.name.localizedCaseInsensitiveCompare(b.store.name) == .orderedAscending
            }
        }
        if !town.isEmpty, matching.isEmpty, notice == nil {
            notice = Notice(ok: false, text: "No store's name or address mentions “\(town)”: here are all of them.")
        }
        return ShopStoresView.page(
            frame: shopFrame(visit, place: place, notice: notice), entries: entries, current: place.store, town: town, located: near != nil
        ).response(status: status)
    }

    private func favouritesPage(_ visit: ShopVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        guard let customer = visit.customer else { return ConsolePage.redirect(Self.signInPath(next: "/shop/favourites")) }
        let page = try await services.favourites.list(of: customer, at: place.store?.id, limit: 100, cursor: nil, logger: visit.logger)
        return ShopFavouritesView.page(
            frame: shopFrame(visit, place: place, notice: notice), products: page.items.map(\.0), back: Self.here(visit.request)
        )
        .response(status: status)
    }

    /// The products the customer keeps as favourites (none for a visitor).
    private func favouriteIDs(_ visit: ShopVisit, store: StoreID) async throws -> Set<ProductID> {
        guard let customer = visit.customer else { return [] }
        let page = try await services.favourites.list(of: customer, at: store, limit: 100, cursor: nil, logger: visit.logger)
        return Set(page.items.map(\.0.id))
    }

    /// "Your store is chosen. Your cart changed: ...": what a change of store did to the cart.
    static func storeChanged(_ changes: [String]) -> Notice {
        Notice(ok: true, text: "Your store is chosen. Your cart changed: \(changes.joined(separator: "; ")).")
    }
}
