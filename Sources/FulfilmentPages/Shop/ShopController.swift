import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import Logging

/// The web shop (issue 28): a customer's way in without an app, served beside the console on the
/// same cookie session, CSRF token and CSP. Every page stands for the API operation a shop's app
/// would call (`searchProducts`, `setCartItem`, `checkout`...) and passes its access rule; every
/// action calls that operation's domain code. Pages are plain forms that post and redirect; the
/// shop's script (`shop.js`) only adds live order tracking, quantities without a reload, and a
/// camera barcode scan. The customer's own order pages (`/orders`) are the shop's too.
///
/// Routes here, views in `Views/`: the routes are in `ShopController+*.swift`, one file per part
/// of the shop; each reads the form, calls the domain services and hands what they answered to
/// its view (`ShopSearchView`, `ShopLocateView`, `ShopStoresView`, `ShopFavouritesView`,
/// `ShopCartView`, `ShopCheckoutView`, `ShopRegisterView`, `MyOrdersView`, `OrderPageView`, in
/// the frame of `ShopPageView`), a pure function of plain values that returns the page's HTML (no
/// services, no request, no database), so a page's markup is found in the view named after it.
package struct ShopController: PageController {
    package let services: Services
    package let secureCookies: Bool

    package init(services: Services, secureCookies: Bool) {
        self.services = services
        self.secureCookies = secureCookies
    }

    /// The shop's routes (`/shop/...` and `/orders/...`), behind the pages' one same-origin check.
    package var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: SameOriginMiddleware())
        registerShopAccount(on: routes)
        registerShopCatalogue(on: routes)
        registerShopCart(on: routes)
        registerShopCheckout(on: routes)
        registerCustomerOrders(on: routes)
        registerOrderChanges(on: routes)
        registerShopCommunity(on: routes)
        registerShopProducts(on: routes)
        return routes
    }
}

extension ShopController {

    /// The operations a visitor may do without an account (issue 45): reading the catalogue,
    /// choosing a store and filling a cart. Anything else sends them to sign in and back.
    static let visitorOperations: Set<String> = [
        "searchProducts", "getProduct", "getProductByBarcode", "locateProducts", "listStores", "chooseStore", "getCart", "setCartItem",
        "removeCartItem", "listCategories", "listNews", "getNews", "listRecipes", "getRecipe", "listReviews",
    ]

    /// The shop's front door: a signed-in customer comes in through ``page(_:_:operation:store:_:)``
    /// (the operation's access rule, the anti-forgery token); a visitor only to the operations
    /// of ``visitorOperations`` (their forms are checked for their origin by
    /// ``SameOriginMiddleware``), and to anything else is asked to sign in, then brought back.
    func shopPage(
        _ request: Request, _ context: AppRequestContext, operation: String, _ body: @Sendable (ShopVisit) async throws -> Response
    ) async throws -> Response {
        if request.cookies[ConsoleSession.cookieName] != nil,
            let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
        {
            return try await page(request, context, operation: operation, session: session) { visit in try await body(ShopVisit(visit)) }
        }
        guard Self.visitorOperations.contains(operation) else {
            return ConsolePage.redirect(Self.signInPath(next: request.method == .get ? Self.here(request) : "/shop/cart"))
        }
        let form = request.method == .post ? try await ConsoleForm.read(request) : ConsoleForm(fields: [:])
        let visit = ShopVisit(visitor: request, form: form, logger: context.logger)
        do {
            return try await body(visit)
        } catch {
            var logger = context.logger
            logger[metadataKey: "path"] = "\(request.uri.path)"
            return refusal(error, session: nil, logger: logger)
        }
    }

    /// The sign-in page that comes back to `next` (a path of the shop) once signed in.
    static func signInPath(next: String) -> String {
        var components = URLComponents()
        components.path = "/"
        components.queryItems = [URLQueryItem(name: "next", value: next)]
        return components.string ?? "/"
    }

    /// Where someone is shopping: the cart's store (else the one they chose), and the cart; a
    /// visitor's from their cookies.
    struct ShopPlace: Sendable {
        var store: StoreRecord?
        var cart: Cart
        var itemCount: Int { cart.lines.reduce(0) { $0 + $1.quantity } }
    }

    func shopPlace(_ visit: ShopVisit) async throws -> ShopPlace {
        let cart: Cart
        var storeID: StoreID?
        if let customer = visit.customer {
            cart = try await services.carts.cart(customer: customer, logger: visit.logger)
            storeID = cart.storeID
            if storeID == nil { storeID = try await services.favourites.chosenStore(of: customer, logger: visit.logger) }
        } else if visit.guestToken != nil {
            cart = try await services.guestCarts.cart(token: visit.guestToken, store: visit.chosenStore, logger: visit.logger)
            storeID = cart.storeID ?? visit.chosenStore
        } else {
            // No cart cookie, no cart to read: an empty one at the store they chose (one
            // statement fewer on every page of a visitor who has not added anything).
            let store = try? await visit.chosenStore.asyncMap { try await services.catalogue.store($0, logger: visit.logger) }
            return ShopPlace(store: store ?? nil, cart: .empty(at: store ?? nil))
        }
        // A store that is gone (a stale cookie) is no store: the visitor chooses again.
        let store = try? await storeID.asyncMap { try await services.catalogue.store($0, logger: visit.logger) }
        return ShopPlace(store: store ?? nil, cart: cart)
    }

    /// The frame of a shop page (``ShopPageView``) for this visit: the customer's (or the
    /// visitor's) navigation, the cart's count and, when there is one, the outcome of the last
    /// form above the body (else the notice a redirect asked for).
    func shopFrame(_ visit: ShopVisit, place: ShopPlace?, notice: Notice? = nil) -> ShopPageView.Frame {
        ShopPageView.Frame(session: visit.session, notice: notice ?? Self.redirectNotice(visit.request), cartCount: place?.itemCount)
    }

    func shopFrame(_ visit: PageVisit, place: ShopPlace?, notice: Notice? = nil) -> ShopPageView.Frame {
        shopFrame(ShopVisit(visit), place: place, notice: notice)
    }

    /// Runs a shop form's `body`; a refusal (the API's status and sentence) is shown by `render`
    /// above the page the form was on, a success redirects to `back` with its notice.
    func shopForm(
        _ visit: ShopVisit, render: (Notice, HTTPResponse.Status) async throws -> Response, _ body: () async throws -> String
    ) async throws -> Response {
        do {
            let done = try await body()
            return ConsolePage.redirect(Self.backPath(visit.form["back"], notice: done))
        } catch {
            let refused = try Self.clientRefusal(error)
            return try await render(Notice(ok: false, text: refused.message), refused.status)
        }
    }

    /// The sentences a redirect may ask a page to show (`?notice=added`): fixed, so a link from
    /// elsewhere cannot put words in the shop's mouth.
    static let redirectNotices: [String: String] = [
        "added": "Added to your cart.",
        "updated": "Your cart is updated.",
        "removed": "Removed from your cart.",
        "favourite": "Saved to your favourites.",
        "unfavourite": "Removed from your favourites.",
        "store": "Your store is chosen: prices, stock and aisles are now that store's.",
        "coupon": "The coupon is on your cart.",
        "uncoupon": "The coupon is off your cart.",
        "placed": "Your order is placed. Show the code below at the desk.",
        "arrived": "Thank you: the store knows you are here and is bringing your order out.",
        "welcome": "Welcome! Choose the store you will collect from.",
        "kept": "You kept the substitute.",
        "refused": "You refused the substitute: it stays in the store and is not charged.",
        "moved": "Your pickup time is changed. Your code is new: the one you had no longer works.",
        "unmoved": "That is the pickup time you have: nothing changed, and your code is the same.",
        "cancelled": "Your order is cancelled. Nothing is charged.",
        "changed": "Your order is changed. Your code is the same.",
        "merged": "Welcome back: what you put in your cart before signing in is in your cart.",
        "reviewed": "Thank you: your review is posted.",
        "review-updated": "Your review is updated.",
        "helpful": "Thank you: counted as helpful.",
        "reported": "Thank you: the store's moderators will look at it.",
        "reported-before": "You reported this already: the store's moderators have it.",
        "commented": "Your comment is posted.",
    ]

    static func redirectNotice(_ request: Request) -> Notice? {
        guard let key = query(request)["notice"], let text = redirectNotices[key] else { return nil }
        return Notice(ok: true, text: text)
    }

    /// The query as a GET form sends it (`+` is a space), read as the form fields it is.
    static func query(_ request: Request) -> ConsoleForm {
        ConsoleForm(encoded: request.uri.query ?? "")
    }

    /// A form's `back` as a path of this shop (never another site, never `//host`), with the notice.
    static func backPath(_ back: String?, notice: String) -> String {
        var path = "/shop/cart"
        if let back, back.hasPrefix("/shop") || back.hasPrefix("/orders/"), !back.hasPrefix("//"), !back.contains("\\"),
            back.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f })
        {
            path = back
        }
        var components = URLComponents(string: path) ?? URLComponents(string: "/shop/cart")!
        var items = (components.queryItems ?? []).filter { $0.name != "notice" }
        items.append(URLQueryItem(name: "notice", value: notice))
        components.queryItems = items
        return components.string ?? "/shop/cart"
    }

    /// This request's path and query without its notice: where a form on this page comes back to.
    static func here(_ request: Request) -> String {
        guard var components = URLComponents(string: request.uri.description) else { return request.uri.path }
        components.queryItems = components.queryItems?.filter { $0.name != "notice" }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        return components.string ?? request.uri.path
    }
}
