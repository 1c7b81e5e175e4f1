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

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

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
            <title>\(title) · Fulfilment</title>
            <link rel="stylesheet" href="\(ConsoleAssets.url("console.css"))">
            \(scriptTags)
            \(refreshTo.map { "<meta http-equiv=\"refresh\" content=\"0;url=\($0)\">" as HTML })
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
        guard let session else { return "<header class=\"top\"><span class=\"brand\">Fulfilment</span></header>" }
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
            links.append("<a href=\"/shop/locate\">Find in store</a>")
            links.append("<a href=\"/shop/favourites\">Favourites</a>")
            let count: HTML = cartCount.map { " <span id=\"cart-count\" class=\"count\">(\($0))</span>" } ?? "<span id=\"cart-count\"></span>"
            links.append("<a href=\"/shop/cart\">Cart\(count)</a>")
            links.append("<a href=\"/orders\">My orders</a>")
        }
        if role == .manager { links.append("<a href=\"/console/stock\">Stock</a>") }
        if role == .manager { links.append("<a href=\"/console/sales\">Sales</a>") }
        if role == .manager { links.append("<a href=\"/console/coupons\">Coupons</a>") }
        if role == .manager { links.append("<a href=\"/console/news\">News</a>") }
        if role == .manager || role == .admin { links.append("<a href=\"/console/moderation\">Moderation</a>") }
        links.append("<a href=\"/account\">My data</a>")
        return """
            <header class="top">
            <span class="brand">Fulfilment</span>
            <nav>\(links)</nav>
            <form method="post" action="/signout" class="signout">
            \(Self.csrfInput(session))
            <button type="submit" id="sign-out">Sign out</button>
            </form>
            </header>
            """
    }

    static func csrfInput(_ session: ConsoleSession) -> HTML {
        "<input type=\"hidden\" name=\"\(ConsoleSession.csrfField)\" value=\"\(session.csrfToken)\">"
    }

    /// A refusal as a person reads it: a heading and the service's own sentence, never JSON.
    static func message(_ title: String, _ text: String, session: ConsoleSession?, status: HTTPResponse.Status) -> Response {
        ConsolePage(
            title: title, session: session,
            body: """
                <section class="notice notice-refused" role="alert">
                <h1>\(title)</h1>
                <p>\(text)</p>
                <p><a href="/">Back to the start</a></p>
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

/// Money as people read it at the desk: `JMD 1,500.00`.
enum MoneyText {
    static func format(_ amount: Int64, _ currency: String) -> String {
        let negative = amount < 0
        let value = abs(amount)
        let whole = String(value / 100)
        var grouped = ""
        for (index, character) in whole.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let cents = String(format: "%02d", Int(value % 100))
        return "\(negative ? "-" : "")\(currency) \(String(grouped.reversed())).\(cents)"
    }

    static func format(_ money: Money) -> String { format(money.amount, money.currency) }
}

/// Times as the desk shows them: UTC, to the second (`2026-11-23 14:05:09 UTC`).
enum TimeText {
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// A moment as the store's clock shows it, with the zone's offset then, so a customer need
    /// not convert from UTC: `Wed 1 Dec 2026 18:30 (UTC-05:00)`; UTC when the store has no zone.
    static func local(_ date: Date, in zone: TimeZone?) -> String {
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let day = LocalDate(date, in: zone)
        let (year, month, dayOfMonth) = day.components
        let offset = zone.secondsFromGMT(for: date)
        let utc =
            offset == 0
            ? "UTC"
            : "UTC\(offset < 0 ? "-" : "+")\(LocalDate.pad(abs(offset) / 3600, 2)):\(LocalDate.pad(abs(offset) % 3600 / 60, 2))"
        return "\(SlotText.weekdays[day.weekday - 1]) \(dayOfMonth) \(SlotText.months[month - 1]) \(year) \(SlotText.time(date, zone)) (\(utc))"
    }

    /// How long ago, in whole minutes or hours (`12 min`, `3 h 5 min`).
    static func age(since date: Date, now: Date = Date()) -> String {
        let minutes = max(0, Int(now.timeIntervalSince(date) / 60))
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
