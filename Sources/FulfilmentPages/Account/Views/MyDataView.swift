import Foundation
import FulfilmentDomain

/// "My data", shown by `GET /account` and after its forms (`POST /account/identities/{provider}/unlink`,
/// a refused `POST /account/erase`): how the person signs in (with Unlink on each identity
/// provider), the download of everything held about them, and the form that erases the account.
enum MyDataView {
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, linked: ProviderSignIn.Linked, details: HTML) -> ConsolePage {
        let identities = linked.identities.map { identity -> HTML in
            """
            <li id="identity-\(identity.providerID.uuidString.lowercased())">\(identity.name)\(identity.email.map { " (\($0))" } ?? "")
            <form method="post" action="/account/identities/\(identity.providerID.uuidString.lowercased())/unlink" class="inline-form">
            \(csrf)<button type="submit" class="secondary">Unlink</button></form></li>
            """
        }
        let signIns: HTML =
            identities.isEmpty
            ? "<p>You sign in with your email and password.</p>"
            : """
            <p>\(linked.hasPassword ? "Your email and password, and:" : "You have no password here; you sign in with:")</p>
            <ul id="identities">\(identities)</ul>
            """
        let passwordField: HTML =
            linked.hasPassword
            ? "<label class=\"field\">Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\" required></label>"
            : "<input type=\"hidden\" name=\"password\" value=\"\">"
        return ConsolePage(
            title: "My data", session: session,
            body: """
                <h1>My data</h1>
                \(notice.map { $0.render(id: "account-note") } ?? .empty)
                \(details)
                <h2>How you sign in</h2>
                \(signIns)
                <h2>Download</h2>
                <p>Everything this shop holds about you, as one JSON file: your account, sign-ins, cart, favourites, orders, recipes, comments and reviews.</p>
                <p><a class="button" id="export" href="/account/export" download>Download my data</a></p>
                <h2>Erase my account</h2>
                <p>Your name, email and password are deleted and you are signed out everywhere. Orders are kept for the shop's books without your name. Open orders must be collected or cancelled first.</p>
                <form method="post" action="/account/erase" class="fields" id="erase">
                \(csrf)
                \(passwordField)
                <label class="check"><input type="checkbox" name="deleteContent"> Delete my recipes, comments and reviews too</label>
                <button type="submit" class="danger" id="erase-button">Erase my account</button>
                </form>
                """
        )
    }
}
