import Foundation
import FulfilmentDomain

/// The frame of every shop page (every view in `Shop/Views/` but ``MyOrdersView``): the console's
/// shell with the customer's navigation, the cart's count and the shop's script, and the outcome
/// of the last form above the body; and the hidden fields every shop form carries.
enum ShopPageView {
    /// What the frame shows around a page's body: whose page it is, the notice above it (a form's
    /// outcome, or the one a redirect asked for), and the cart's count (nil: not shown).
    struct Frame: Sendable {
        /// The customer's session; nil for a visitor (issue 45), whose forms carry no token.
        var session: ConsoleSession?
        var notice: Notice?
        var cartCount: Int?
    }

    static func page(_ title: String, frame: Frame, body: HTML) -> ConsolePage {
        ConsolePage(
            title: title, session: frame.session,
            body: """
                <div id="shop-notice">\(frame.notice.map { $0.render(id: "notice") } ?? .empty)</div>
                \(body)
                """,
            scripts: ["shop.js"], cartCount: frame.cartCount, shop: true
        )
    }

    /// The hidden fields every shop form carries: the anti-forgery token and where to come back to.
    static func formFields(session: ConsoleSession?, back: String) -> HTML {
        "\(ConsolePage.csrfInput(session))<input type=\"hidden\" name=\"back\" value=\"\(back)\">"
    }
}
