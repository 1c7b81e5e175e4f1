import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Signing up in the shop, `/shop/register` (`register`): the same rules and the same session
/// as the API's, carried in the console's cookie; then on to choosing a store. Like the sign-in
/// form, it has no session to take an anti-forgery token from, so the browser's own word on
/// where the form came from (`Origin`, `Sec-Fetch-Site`) is checked first.
extension ShopController {
    func registerShopAccount(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/register") { request, context in
            let next = SignInLanding.next(Self.query(request)["next"])
            if try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger) != nil {
                return ConsolePage.redirect(next ?? "/shop")
            }
            return ShopRegisterView.registerPage(name: nil, email: nil, problem: nil, next: next).response()
        }
        router.post("/shop/register") { request, context in
            let form = try await ConsoleForm.read(request)
            let next = SignInLanding.next(form["next"])
            do {
                let signedIn = try await accounts.register(
                    email: form["email"] ?? "", name: form["name"] ?? "", password: form["password"] ?? "",
                    confirmation: form["passwordConfirmation"] ?? "", logger: context.logger)
                // A visitor who chose a store and filled a cart goes on with both; a new shopper
                // with neither chooses a store first.
                let fresh = request.cookies[ShopVisit.storeCookie] == nil && ShopVisit.guestToken(request) == nil
                let landing = try await SignInLanding.land(
                    request, user: signedIn.user, next: next, home: fresh ? "/shop/stores?notice=welcome" : "/shop", services: services,
                    secure: secureCookies, logger: context.logger)
                return landing.redirect(session: signedIn.token.text, secure: secureCookies)
            } catch {
                let refused = ErrorMiddleware<AppRequestContext>.apiError(for: error)
                guard refused.status != .internalServerError else { return refusal(error, session: nil, logger: context.logger) }
                return ShopRegisterView.registerPage(name: form["name"], email: form["email"], problem: refused.message, next: next).response(
                    status: refused.status)
            }
        }
    }
}
