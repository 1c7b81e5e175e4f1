import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The shell every console page shares, and the headers every page answers with: UTF-8 HTML,
/// a Content-Security-Policy that allows scripts and styles only from this service's own files
/// (no inline script anywhere), no framing, no caching of pages that show orders.
struct ConsolePage: Sendable {
    var title: String
    var session: ConsoleSession?
    var body: HTML
    /// Scripts under `/console/assets/` this page loads (deferred).
    var scripts: [String] = []
    /// A class on `<body>`, for page-specific layout (`desk`, `pick`).
    var bodyClass: String = ""
    /// The customer's cart count, shown beside "Cart" on the shop's pages.
    var cartCount: Int? = nil
    /// Where the page moves on to at once (a meta refresh, which needs no script).
    var refreshTo: String? = nil
    /// Seconds after which the page loads itself again (a meta refresh: progress without script).
    var refreshEvery: Int? = nil
    /// A page of the shop: a visitor (no session) gets the shop's navigation and a way to sign in.
    var shop: Bool = false

    /// Scripts, styles and everything else from this service only; images also from the
    /// brand's logo's own site, when it has one elsewhere.
    static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:\(PageBrand.current.logoOrigin.map { " " + $0 } ?? ""); "
            + "media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    static func headers(contentType: String = "text/html; charset=utf-8") -> HTTPFields {
        [
            .contentType: contentType,
            HTTPField.Name("Content-Security-Policy")!: contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "same-origin",
            HTTPField.Name("X-Frame-Options")!: "DENY",
            .cacheControl: "no-store",
        ]
    }

    func response(status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: Self.headers(), body: .init(byteBuffer: ByteBuffer(string: document.markup)))
    }

    var document: HTML {
        let scriptTags = HTML.join(
            scripts.map { name in
                "<script src=\"\(ConsoleAssets.url(name))\" defer></script>"
            })
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · \(PageBrand.current.name)</title>
            <link rel="stylesheet" href="\(ConsoleAssets.url("console.css"))">
            \(PageBrand.current.colour == nil ? "" : "<link rel=\"stylesheet\" href=\"/brand.css\">" as HTML)
            \(scriptTags)
            \(refreshTo.map { "<meta http-equiv=\"refresh\" content=\"0;url=\($0)\">" as HTML })
            \(refreshEvery.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" as HTML })
            </head>
            <body class="\(bodyClass)">
            <a class="skip" href="#main">Skip to content</a>
            \(navigation)
            <main id="main">
            \(body)
            </main>
            </body>
            </html>
            """
    }

    private var navigation: HTML {
        guard let session else {
            guard shop else { return "<header class=\"top\">\(PageBrand.mark)</header>" }
            let count: HTML = cartCount.map { " <span id=\"cart-count\" class=\"count\">(\($0))</span>" } ?? "<span id=\"cart-count\"></span>"
            return """
                <header class="top">
                \(PageBrand.mark)
                <nav><a href="/shop">Shop</a><a href="/shop/offers">Offers</a><a href="/shop/locate">Find in store</a><a href="/shop/stores">Stores</a><a href="/shop/cart">Cart\(count)</a><a href="/" id="sign-in-link">Sign in</a><a href="/shop/register" id="register-link">Create an account</a></nav>
                </header>
                """
        }
        let role = session.identity.role
        var links: [HTML] = []
        if role.worksInStore {
            links.append("<a href=\"/console/desk\">Desk</a>")
            links.append("<a href=\"/console/orders\">Orders</a>")
            links.append("<a href=\"/console/pick-lists\">Pick lists</a>")
        } else if role == .admin {
            links.append("<a href=\"/console/stores\">Stores</a>")
        } else {
            links.append("<a href=\"/shop\">Shop</a>")
            links.append("<a href=\"/shop/offers\">Offers</a>")
            links.append("<a href=\"/shop/locate\">Find in store</a>")
            links.append("<a href=\"/shop/favourites\">Favourites</a>")
            let count: HTML = cartCount.map { " <span id=\"cart-count\" class=\"count\">(\($0))</span>" } ?? "<span id=\"cart-count\"></span>"
            links.append("<a href=\"/shop/cart\">Cart\(count)</a>")
            links.append("<a href=\"/orders\">My orders</a>")
        }
        if role == .manager { links.append("<a href=\"/console/stock\">Stock</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/products\">Products</a>") }
        if role == .manager { links.append("<a href=\"/console/sales\">Sales</a>") }
        if role == .manager { links.append("<a href=\"/console/coupons\">Coupons</a>") }
        if role == .manager { links.append("<a href=\"/console/news\">News</a>") }
        if role == .manager { links.append("<a href=\"/console/people\">People</a>") }
        if role == .manager { links.append("<a href=\"/console/settings\">Settings</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/moderation\">Moderation</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/mail\">Mail</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/reports/sales\">Reports</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/webhooks\">Webhooks</a>") }
        links.append("<a href=\"/account\">My data</a>")
        return """
            <header class="top">
            \(PageBrand.mark)
            <nav>\(links)</nav>
            <form method="post" action="/signout" class="signout">
            \(Self.csrfInput(session))
            <button type="submit" id="sign-out">Sign out</button>
            </form>
            </header>
            """
    }

    static func csrfInput(_ session: ConsoleSession?) -> HTML {
        guard let session else { return .empty }
        return "<input type=\"hidden\" name=\"\(ConsoleSession.csrfField)\" value=\"\(session.csrfToken)\">"
    }

    /// A refusal as a person reads it: a heading and the service's own sentence, never JSON.
    static func message(
        _ title: String, _ text: String, session: ConsoleSession?, status: HTTPResponse.Status,
        back: (path: String, label: String) = ("/", "Back to the start")
    ) -> Response {
        ConsolePage(
            title: title, session: session,
            body: """
                <section class="notice notice-refused" role="alert">
                <h1>\(title)</h1>
                <p>\(text)</p>
                <p><a href="\(back.path)" id="back">\(back.label)</a></p>
                </section>
                """
        ).response(status: status)
    }

    static func redirect(_ location: String, cookie: Cookie? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let cookie { response.setCookie(cookie) }
        return response
    }
}

/// The outcome of a form, shown above the page it returns to: done (green) or refused (red),
/// always as a sentence.
struct Notice: Sendable {
    var ok: Bool
    var text: String

    func render(id: String) -> HTML {
        "<p class=\"notice \(ok ? "notice-ok" : "notice-refused")\" id=\"\(id)\" role=\"status\">\(text)</p>"
    }
}
