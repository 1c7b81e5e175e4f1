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
            return registerPage(form: ConsoleForm(fields: [:]), problem: nil).response()
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
                return registerPage(form: form, problem: refused.message).response(status: refused.status)
            }
        }
    }

    private func registerPage(form: ConsoleForm, problem: String?) -> ConsolePage {
        let notice: HTML = problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"register-problem\">\($0)</p>" } ?? .empty
        return ConsolePage(
            title: "Create an account", session: nil,
            body: """
                <form method="post" action="/shop/register" class="signin" id="register">
                <h1>Create an account</h1>
                \(notice)
                <label for="name">Your name</label>
                <input id="name" name="name" autocomplete="name" required maxlength="200" value="\(form["name"] ?? "")">
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="\(form["email"] ?? "")">
                <label for="password">Password (at least \(AccountRules.minimumPasswordLength) characters)</label>
                <input id="password" name="password" type="password" autocomplete="new-password" required minlength="\(AccountRules.minimumPasswordLength)" maxlength="72">
                <label for="password-confirmation">Password again</label>
                <input id="password-confirmation" name="passwordConfirmation" type="password" autocomplete="new-password" required maxlength="72">
                <button type="submit" id="register-button">Create account</button>
                <p class="hint">Already have one? <a href="/">Sign in</a>.</p>
                </form>
                """)
    }
}
