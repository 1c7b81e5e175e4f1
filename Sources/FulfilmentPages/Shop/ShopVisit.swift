import Foundation
import FulfilmentDomain
import Hummingbird
import Logging

/// Who is shopping on this request (issue 45): a signed-in customer (their session), or a
/// visitor, known only by two cookies of their browser: the cart they filled before signing in
/// (`fulfilment_cart`, the token of their guest cart) and the store they chose
/// (`fulfilment_store`). The reading pages and the cart work for both; everything else of the
/// shop asks a visitor to sign in and comes back.
struct ShopVisit: Sendable {
    static let cartCookie = "fulfilment_cart"
    static let storeCookie = "fulfilment_store"

    var request: Request
    /// The customer's session; nil for a visitor.
    var session: ConsoleSession?
    var form: ConsoleForm
    var logger: Logger

    init(_ visit: PageVisit) {
        (request, session, form, logger) = (visit.request, visit.session, visit.form, visit.logger)
    }

    init(visitor request: Request, form: ConsoleForm, logger: Logger) {
        (self.request, session, self.form, self.logger) = (request, nil, form, logger)
    }

    /// The signed-in customer, if any.
    var customer: UserID? { session?.identity.userID }

    /// The visitor's guest cart token, as the cookie carries it (bounded: a token is 43 characters).
    var guestToken: String? { Self.guestToken(request) }

    static func guestToken(_ request: Request) -> String? {
        guard let token = request.cookies[cartCookie]?.value, (20...128).contains(token.count) else { return nil }
        return token
    }

    /// The store the visitor chose, as its cookie says (nil when absent or not an id).
    var chosenStore: StoreID? { request.cookies[Self.storeCookie].flatMap { StoreID($0.value) } }

    /// The guest cart's cookie: HttpOnly (no script reads it), SameSite=Lax (a link from a
    /// message or a search engine still finds the cart; another site's form never sends it),
    /// kept as long as the cart is.
    static func cartCookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(
            name: cartCookie, value: token, maxAge: Int(GuestCarts.lifetime), path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func clearingCartCookie(secure: Bool) -> Cookie {
        Cookie(
            name: cartCookie, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// The chosen store's cookie, for a year.
    static func storeCookie(_ store: StoreID, secure: Bool) -> Cookie {
        Cookie(name: storeCookie, value: store.description, maxAge: 365 * 24 * 3600, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
