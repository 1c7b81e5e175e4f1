import Foundation
import FulfilmentDomain
import Hummingbird
import Logging

/// Where someone lands once signed in or signed up, by any door (the sign-in form, the shop's
/// sign-up, a provider), and what comes with them (issue 45): a customer who shopped as a
/// visitor keeps the store they chose (when their account has none) and the cart they filled,
/// merged into the account's cart in one statement; then they go on to where they were going
/// (`next`: checkout, the page they were reading), or to the cart when something of it could not
/// come, which the cart then names.
struct SignInLanding: Sendable {
    /// Where to go next.
    var location: String
    /// The cookies to set or clear with it (the guest cart's, spent).
    var cookies: [Cookie]

    static func land(
        _ request: Request, user: User, next: String?, home: String, services: Services, secure: Bool, logger: Logger
    ) async throws -> SignInLanding {
        var landing = SignInLanding(location: next ?? home, cookies: [])
        guard user.role == .customer else { return landing }
        if let store = request.cookies[ShopVisit.storeCookie].flatMap({ StoreID($0.value) }),
            try await services.favourites.chosenStore(of: user.id, logger: logger) == nil
        {
            try? await services.favourites.chooseStore(store, for: user.id, logger: logger)
        }
        guard let token = ShopVisit.guestToken(request) else { return landing }
        landing.cookies.append(ShopVisit.clearingCartCookie(secure: secure))
        guard let merged = try await services.guestCarts.merge(token: token, into: user.id, logger: logger) else { return landing }
        if !merged.notAdded.isEmpty {
            let ids = merged.notAdded.compactMap { $0.productId?.uuidString.lowercased() }.joined(separator: ",")
            landing.location = "/shop/cart?notice=merged&missing=\(ids)"
        } else if next == nil {
            landing.location = "/shop/cart?notice=merged"
        }
        return landing
    }

    /// A `next` a sign-in may go on to: a path of the shop or of the customer's orders, never
    /// another site (`//host`, a backslash, a control character); nil otherwise.
    static func next(_ raw: String?) -> String? {
        guard let raw, raw.count <= 500, raw.hasPrefix("/shop") || raw.hasPrefix("/orders"), !raw.hasPrefix("//"), !raw.contains("\\"),
            raw.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f })
        else { return nil }
        return raw
    }

    /// The redirect to `location` with the session's cookie and these.
    func redirect(session token: String, secure: Bool) -> Response {
        var response = ConsolePage.redirect(location, cookie: ConsoleSession.cookie(token: token, secure: secure))
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }
}
