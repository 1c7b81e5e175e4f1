import Foundation
import FulfilmentDomain

/// Signing in. The sign-in page is shown by `GET /` to whoever is signed out and by a refused
/// `POST /signin`; with an identity provider (issue 33), the page that asks an existing account's
/// password once to link it (`GET /signin/link`, a refused `POST /signin/link`), the page that
/// moves on once signed in (`GET /signin/callback`, `POST /signin/link`) and the one that says
/// where a provider's sign-in failed (`GET /signin/provider/{id}`, `/signin/callback`, `/signin/link`).
enum SignInView {
    /// `providers` is ``providerButtons(_:)``; `email` is kept after a refusal.
    /// `next`: where a shopper goes on to once signed in (checkout, the page they were on).
    static func signInPage(email: String?, problem: String?, providers: HTML, next: String? = nil) -> ConsolePage {
        let nextField: HTML = next.map { "<input type=\"hidden\" name=\"next\" value=\"\($0)\">" } ?? .empty
        let register = next.map { "/shop/register?next=\(Self.queryValue($0))" } ?? "/shop/register"
        let notice: HTML = problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"sign-in-problem\">\($0)</p>" } ?? .empty
        return ConsolePage(
            title: "Sign in", session: nil,
            body: """
                <form method="post" action="/signin" class="signin" id="sign-in">
                <h1>Sign in</h1>
                \(next != nil ? "<p class=\"hint\" id=\"sign-in-to-continue\">Sign in to go on. What you put in your cart stays in it.</p>" : "" as HTML)
                \(notice)
                \(nextField)
                \(providers)
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="username" required value="\(email ?? "")">
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required>
                <button type="submit" id="sign-in-button">Sign in</button>
                <p><a href="/password-reset" id="forgot-password">Forgot your password?</a></p>
                <p class="hint">Customers: the shop, your orders and pickup codes. Staff and managers: the store console.</p>
                <p>New here? <a href="\(register)" id="register-link">Create an account</a>.</p>
                </form>
                """)
    }

    /// The sign-in page's buttons: links (a form could not follow a redirect to another site
    /// under this site's `form-action 'self'`).
    static func providerButtons(_ providers: [IdentityProvider], next: String? = nil) -> HTML {
        guard !providers.isEmpty else { return .empty }
        let returnTo = next.map { "?returnTo=\(Self.queryValue($0))" } ?? ""
        let links = providers.map { provider -> HTML in
            "<li><a class=\"button provider\" href=\"\(provider.signInPath)\(returnTo)\">Sign in with \(provider.name)</a></li>"
        }
        return "<ul class=\"providers\" id=\"providers\">\(links)</ul><p class=\"hint\">or with your email and password:</p>"
    }

    /// The page that moves on to `next` at once (a meta refresh, no script), with a link beside it.
    static func signedInPage(next: String, name: String) -> ConsolePage {
        ConsolePage(
            title: "Signed in", session: nil,
            body: """
                <section class="signin" id="signed-in" data-next="\(next)">
                <h1>Signed in</h1>
                <p>Welcome, \(name). <a href="\(next)" id="continue">Continue</a>.</p>
                </section>
                """, refreshTo: next
        )
    }

    /// A sign-in that failed: which step (from the refusal's `step` detail), and the service's sentence.
    static func failurePage(_ refused: APIError) -> ConsolePage {
        let step: String =
            if case .string(let step)? = refused.details?["step"] {
                [
                    "provider": "reaching the provider", "state": "coming back from the provider", "code_exchange": "completing the sign-in",
                    "id_token": "checking who the provider says you are", "account": "finding your account",
                ][step] ?? step
            } else { "signing in" }
        return ConsolePage(
            title: "Sign-in failed", session: nil,
            body: """
                <section class="notice notice-refused" role="alert" id="provider-failure" data-code="\(refused.code)">
                <h1>Sign-in failed while \(step)</h1>
                <p>\(refused.message)</p>
                <p><a href="/">Back to sign in</a></p>
                </section>
                """
        )
    }

    /// The page that asks, once, the password of the account with the provider's email, to link them.
    static func linkPage(email: String, provider: String, problem: String?) -> ConsolePage {
        let notice: HTML = problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"link-problem\">\($0)</p>" } ?? .empty
        return ConsolePage(
            title: "Link \(provider)", session: nil,
            body: """
                <form method="post" action="/signin/link" class="signin" id="link-form">
                <h1>Link \(provider) to your account</h1>
                \(notice)
                <p>\(provider) says you are <strong>\(email)</strong>, and an account with that email already exists here.
                Enter its password once to link them; after that, \(provider) signs you in.</p>
                <input type="hidden" name="email" autocomplete="username" value="\(email)">
                <label for="link-password">Password</label>
                <input id="link-password" name="password" type="password" autocomplete="current-password" required>
                <button type="submit" id="link-button">Link and sign in</button>
                </form>
                """)
    }

    /// `value` percent-encoded for a query (a path with its own `?` and `&`).
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=?+")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
