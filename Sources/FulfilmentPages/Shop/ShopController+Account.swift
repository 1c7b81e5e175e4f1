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
            if try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger) != nil {
                return ConsolePage.redirect("/shop")
            }
            return ShopRegisterView.registerPage(name: nil, email: nil, problem: nil).response()
        }
        router.post("/shop/register") { request, context in
            let form = try await ConsoleForm.read(request)
            do {
                let signedIn = try await accounts.register(
                    email: form["email"] ?? "", name: form["name"] ?? "", password: form["password"] ?? "",
                    confirmation: form["passwordConfirmation"] ?? "", logger: context.logger)
                return ConsolePage.redirect(
                    "/shop/stores?notice=welcome", cookie: ConsoleSession.cookie(token: signedIn.token.text, secure: secureCookies))
            } catch {
                let refused = ErrorMiddleware<AppRequestContext>.apiError(for: error)
                guard refused.status != .internalServerError else { return refusal(error, session: nil, logger: context.logger) }
                return ShopRegisterView.registerPage(name: form["name"], email: form["email"], problem: refused.message).response(
                    status: refused.status)
            }
        }
    }
}
