import Foundation
import FulfilmentDomain

/// One's own details (issue 44): the form on "My data", confirming a new address from its link,
/// and the unsubscribe page of an optional message.
enum ProfileView {
    /// "Your details" on "My data": name, email (with the address waiting for confirmation), and
    /// the optional messages (transactional ones always come, and the page says so).
    static func details(user: User, profile: Profiles.Profile, csrf: HTML) -> HTML {
        let pending: HTML =
            profile.pendingEmail.map {
                "<p class=\"hint\" id=\"pending-email\">Waiting for confirmation: \($0). Follow the link we mailed there.</p>"
            } ?? .empty
        func checked(_ on: Bool) -> HTML { on ? " checked" : "" }
        return """
            <h2>Your details</h2>
            <form method="post" action="/account/profile" class="fields" id="profile">
            \(csrf)
            <label class="field">Name <input name="name" autocomplete="name" required maxlength="200" value="\(user.name)"></label>
            <label class="field">Email <input name="email" type="email" autocomplete="email" required maxlength="254" value="\(user.email)"></label>
            \(pending)
            <fieldset><legend>Messages you choose</legend>
            <label class="check"><input type="checkbox" name="reminders"\(checked(profile.preferences.reminders))> Remind me before an uncollected order expires</label>
            <label class="check"><input type="checkbox" name="backInStock"\(checked(profile.preferences.backInStock))> Tell me when a favourite is back in stock</label>
            <p class="hint">Receipts, "ready to collect", cancellations, refunds and account messages always come.</p>
            </fieldset>
            <button type="submit" id="save-profile">Save</button>
            </form>
            """
    }

    static func confirmEmailPage(token: String) -> ConsolePage {
        ConsolePage(
            title: "Confirm your email address", session: nil,
            body: """
                <form method="post" action="/account/email/confirm" class="signin" id="confirm-email">
                <h1>Confirm your new email address</h1>
                <p>Your account will use this address from now on.</p>
                <input type="hidden" name="token" value="\(token)">
                <button type="submit" id="confirm-email-button">Confirm</button>
                </form>
                """)
    }

    static func emailConfirmedPage() -> ConsolePage {
        ConsolePage(
            title: "Email address changed", session: nil,
            body: """
                <section class="signin" id="email-confirmed">
                <h1>Your email address is changed</h1>
                <p>Sign in with it from now on. <a href="/">Sign in</a></p>
                </section>
                """)
    }

    static func unsubscribePage(kind: MessageKind, token: String) -> ConsolePage {
        ConsolePage(
            title: "Unsubscribe", session: nil,
            body: """
                <form method="post" action="/unsubscribe?kind=\(kind.rawValue)&amp;token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" class="signin" id="unsubscribe">
                <h1>Stop \(kind.label.lowercased()) messages?</h1>
                <p>Receipts and messages about your orders still come.</p>
                <button type="submit" id="unsubscribe-button">Unsubscribe</button>
                </form>
                """)
    }
}
