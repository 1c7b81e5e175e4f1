import Foundation
import FulfilmentDomain

/// The pages of a forgotten password (issue 44), all without script: ask for the link, "check
/// your mail", choose the new password, done; and the page for a link that no longer works.
enum PasswordResetView {
    static func requestPage(email: String?, problem: String?) -> ConsolePage {
        ConsolePage(
            title: "Forgot your password?", session: nil,
            body: """
                <form method="post" action="/password-reset" class="signin" id="password-reset">
                <h1>Forgot your password?</h1>
                \(problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"reset-problem\">\($0)</p>" as HTML })
                <p>Give the email address of your account: we will mail it a link to choose a new password.</p>
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="username" required value="\(email ?? "")">
                <button type="submit" id="send-link">Send me a link</button>
                <p><a href="/">Back to sign in</a></p>
                </form>
                """)
    }

    /// The same page whether or not the address has an account.
    static func requestedPage() -> ConsolePage {
        ConsolePage(
            title: "Check your mail", session: nil,
            body: """
                <section class="signin" id="reset-requested">
                <h1>Check your mail</h1>
                <p>If an account has this address, a link to choose a new password is on its way. It works once, for 30 minutes.</p>
                <p>No message? Look in your spam folder, or <a href="/password-reset">ask again</a>.</p>
                <p><a href="/">Back to sign in</a></p>
                </section>
                """)
    }

    static func newPasswordPage(token: String, problem: String?) -> ConsolePage {
        ConsolePage(
            title: "Choose a new password", session: nil,
            body: """
                <form method="post" action="/password-reset/confirm" class="signin" id="new-password">
                <h1>Choose a new password</h1>
                \(problem.map { "<p class=\"notice notice-refused\" role=\"alert\" id=\"new-password-problem\">\($0)</p>" as HTML })
                <input type="hidden" name="token" value="\(token)">
                <label for="new-password-field">New password</label>
                <input id="new-password-field" name="newPassword" type="password" autocomplete="new-password" minlength="\(AccountRules.minimumPasswordLength)" required>
                <label for="new-password-again">The same again</label>
                <input id="new-password-again" name="newPasswordConfirmation" type="password" autocomplete="new-password" required>
                <button type="submit" id="set-password">Set my password</button>
                <p class="hint">You will be signed out everywhere, then sign in with it.</p>
                </form>
                """)
    }

    static func donePage() -> ConsolePage {
        ConsolePage(
            title: "Password set", session: nil,
            body: """
                <section class="signin" id="password-set">
                <h1>Your password is set</h1>
                <p>You are signed out everywhere. <a href="/" id="sign-in-again">Sign in</a> with your new password.</p>
                </section>
                """)
    }

    static func linkRefusedPage(_ message: String) -> ConsolePage {
        ConsolePage(
            title: "Link not valid", session: nil,
            body: """
                <section class="notice notice-refused signin" role="alert" id="link-refused">
                <h1>This link does not work</h1>
                <p>\(message)</p>
                <p><a href="/password-reset">Ask for a new link</a> · <a href="/">Sign in</a></p>
                </section>
                """)
    }
}
