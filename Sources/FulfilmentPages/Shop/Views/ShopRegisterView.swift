import Foundation
import FulfilmentDomain

/// Signing up in the shop, shown by `GET /shop/register` and by a refused `POST /shop/register`:
/// the form (name, email, the password twice), with the refusal above it and what was typed kept.
enum ShopRegisterView {
    /// `name` and `email` as typed before a refusal (nil: an empty form).
    /// `next`: where the new customer goes on to (checkout), their visitor's cart with them.
    static func registerPage(name: String?, email: String?, problem: String?, next: String? = nil) -> ConsolePage {
        let nextField: HTML = next.map { "<input type=\"hidden\" name=\"next\" value=\"\($0)\">" } ?? .empty
        let signIn = next.map { "/?next=\(SignInView.queryValue($0))" } ?? "/"
        let notice: HTML = problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"register-problem\">\($0)</p>" } ?? .empty
        return ConsolePage(
            title: "Create an account", session: nil,
            body: """
                <form method="post" action="/shop/register" class="signin" id="register">
                <h1>Create an account</h1>
                \(notice)
                \(nextField)
                <label for="name">Your name</label>
                <input id="name" name="name" autocomplete="name" required maxlength="200" value="\(name ?? "")">
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="\(email ?? "")">
                <label for="password">Password (at least \(AccountRules.minimumPasswordLength) characters)</label>
                <input id="password" name="password" type="password" autocomplete="new-password" required minlength="\(AccountRules.minimumPasswordLength)" maxlength="72">
                <label for="password-confirmation">Password again</label>
                <input id="password-confirmation" name="passwordConfirmation" type="password" autocomplete="new-password" required maxlength="72">
                <button type="submit" id="register-button">Create account</button>
                <p class="hint">Already have one? <a href="\(signIn)">Sign in</a>.</p>
                </form>
                """)
    }
}
