import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 24: managers count stock on the shop floor with a phone, so every console page fits a
/// 360 px screen without scrolling sideways. Each page of `Console.register` is loaded, signed
/// in as the role it is for, with data as long as real data gets (long product, aisle, store and
/// customer names, every column filled), in a Chromium emulating a 360 px phone at a device
/// pixel ratio of 1, so the layout viewport is 360 CSS pixels whatever the window is.
@Suite(
    "Every console page fits a 360 px phone",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct PhoneWidthBrowserTests {
    static let width = 360

    @Test(
        "sign-in, desk and its verdicts, board, pick lists, pick mode, stock, stores, a customer's orders and receipt, a refusal: none wider than 360 px",
        .timeLimit(.minutes(5)))
    func everyPageFits() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree Superstore, Pharmacy & Garden Centre")
            try await sql(
                "UPDATE stores SET address = '2–4 Constant Spring Road, Half Way Tree, Kingston 10, Jamaica' WHERE id = $1", [store], on: app.database
            )
            let manager = try await app.storeAccount(.manager, store: store, name: "Alexandria Montgomery-Fitzgerald")
            let admin = try await Self.admin(app)
            let (customer, session) = try await app.customerAccount()
            try await sql("UPDATE users SET name = 'Maximilian Bartholomew Okonkwo-Richardson' WHERE id = $1", [session.userID], on: app.database)

            let dry = try await app.createAisle(store: store, code: "A01", name: "Rice, grains, pasta & international foods", walkOrder: 1)
            let dairy = try await app.createAisle(
                store: store, code: "C12", name: "Chilled dairy, eggs & plant-based alternatives", walkOrder: 2, zone: "chilled")
            let names = [
                "Grace Jamaican Ackee in Brine, Extra Large Family Pack 540 g (case of twelve tins)",
                "Blue Mountain Estate Single-Origin Medium Roast Whole Bean Coffee 454 g",
                "Wray & Nephew White Overproof Rum 63% 1.75 L",
                "Lasco Soy Food Drink Vanilla Flavoured Powder Refill Pouch 400 g",
            ]
            var products: [String] = []
            for (index, name) in names.enumerated() {
                let product = try await app.createProduct(
                    store: store, name: name, barcode: PickModeBrowserTests.ean13("50123450010\(index)"), price: 123_456 + index,
                    onHand: 40, aisle: index.isMultiple(of: 2) ? dry : dairy, bay: 12 + index, shelf: "TOP")
                products.append(product)
            }
            // The reorder report lists them all: each at or below its minimum supply.
            try await sql("UPDATE stock SET min_supply = 1000 WHERE store_id = $1", [store], on: app.database)
            try await sql("UPDATE products SET minimum_age = 18 WHERE id = $1", [products[2]], on: app.database)

            // Orders: one the customer checks out (their receipt, the desk's scan), others pending.
            try await app.fillCart(session, store: store, products.map { ($0, 3) })
            let order = try await app.checkout(session).json
            let orderID = try #require(order["id"].string)
            let token = try #require(order["pickupToken"].string)
            let staffAPI = try await app.signIn(role: .staff, store: store)
            #expect(try await app.transition(orderID, to: "packaged", by: staffAPI).status == .ok)
            for _ in 0..<3 {
                _ = try await app.createPendingOrder(store: store, customer: session.userID, lines: products.map { ($0, 2) })
            }

            try await withBrowser(width: Self.width, height: 1600, mobile: true) { browser in
                /// Opens `path`, waits for `css` on it and checks the page fits.
                func check(_ path: String, until css: String, _ name: String) async throws {
                    try await browser.open(app.baseURL + path)
                    try await browser.waitFor(css)
                    try await Self.fits(browser, name)
                }
                /// Signs out, then in as `user`, and checks the page they land on.
                func switchTo(_ user: ConsoleUser, _ name: String) async throws {
                    try await browser.click("#sign-out")
                    try await browser.waitFor("#sign-in")
                    try await browser.signIn(user, at: app.baseURL)
                    try await Self.fits(browser, name)
                }
                try await check("/", until: "#sign-in", "sign-in")
                try await check("/console/no-such-page", until: ".notice-refused", "not-found")

                try await browser.signIn(manager, at: app.baseURL)
                try await Self.fits(browser, "desk")
                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=payment_required]")
                try await Self.fits(browser, "desk-pay-first")
                try await browser.click("#pay-cash")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                try await Self.fits(browser, "desk-ready")

                try await check("/console/orders", until: "#board-pending", "board")
                try await browser.open(app.baseURL + "/console/pick-lists")
                try await browser.waitFor("#create")
                try await browser.click("#create")
                try await browser.waitFor("#stop[data-stop='1']")
                let pick = try await browser.currentURL.dropFirst(app.baseURL.count).dropLast("/pick".count)
                try await Self.fits(browser, "pick-mode")
                try await check("/console/pick-lists", until: "#open-pick-lists", "pick-lists")
                try await check(pick + "/print", until: ".stop", "pick-sheet")

                try await check("/console/stock", until: "#stock", "stock")
                try await browser.type("Blue Mountain\n", into: "#q")
                try await browser.waitFor("the search") { try await browser.text("h2").hasPrefix("Products matching") }
                try await browser.clear("#stock tbody tr:first-child input[name=onHand]")
                try await browser.type("36\n", into: "#stock tbody tr:first-child input[name=onHand]")
                try await browser.waitFor("#stock-note")
                // The search is kept as typed, spaces and all (a query's `+` is a space).
                #expect(try await browser.attribute("#q", "value") == "Blue Mountain")
                try await Self.fits(browser, "stock-search")
                try await check("/console/news", until: "#news-editor", "news")
                try await check("/console/sales", until: "#new-sale", "sales")
                try await check("/console/coupons", until: "#new-coupon", "coupons")
                try await check("/console/moderation", until: "h1", "moderation")

                try await switchTo(admin, "stores")
                #expect(try await browser.text("main").contains("Half Way Tree Superstore"))
                try await switchTo(customer, "my-orders")
                try await check("/orders/\(orderID)", until: "#receipt-qr", "receipt")
                try await check("/console/stock", until: ".notice-refused", "refused")
            }
        }
    }

    /// Fails unless the page is as wide as the 360 px viewport or narrower and nothing in it is
    /// wider than its own box, naming the elements that stick out; saves a screenshot
    /// `phone-<name>.png` either way, for a person to look at.
    static func fits(_ browser: WebDriver, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await browser.waitFor("main")
        let measured =
            try await browser.script(
                """
                const root = document.documentElement;
                const wide = [...document.querySelectorAll('body *')]
                  .filter(e => e.getBoundingClientRect().right > root.clientWidth + 0.5)
                  .slice(0, 6)
                  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '')
                            + ' ' + Math.round(e.getBoundingClientRect().right));
                const spilling = [...document.querySelectorAll('main *')]
                  .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX == 'visible')
                  .slice(0, 6)
                  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '')
                            + ' ' + e.scrollWidth + '>' + e.clientWidth);
                return [root.clientWidth, root.scrollWidth, document.body.scrollWidth, wide.join(', '), spilling.join(', ')];
                """) as? [Any]
        try await browser.snapshot("phone-\(name)")
        let client = measured?[0] as? Int ?? 0
        let scroll = max(measured?[1] as? Int ?? .max, measured?[2] as? Int ?? .max)
        #expect(client == width, "\(name): the viewport is \(client) px wide, not \(width)", sourceLocation: sourceLocation)
        #expect(
            scroll <= client, "\(name): \(scroll) px wide on a \(client) px screen; sticking out: \(measured?[3] ?? "?")",
            sourceLocation: sourceLocation)
        // Narrow is not enough: no box's content may stick out of it either (a name wider than
        // its card, a grid wider than its verdict).
        #expect(measured?[4] as? String == "", "\(name): content wider than its box: \(measured?[4] ?? "?")", sourceLocation: sourceLocation)
    }

    @Test(
        "the sales, coupons and news forms: every field as wide as what it holds (or the form), at 360 and 1280 px",
        .timeLimit(.minutes(3)), arguments: [360, 1280])
    func fieldsAsWideAsTheirContent(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store)
            _ = try await app.createProduct(
                store: store, name: "Grace Jamaican Ackee in Brine, Extra Large Family Pack 540 g (case of twelve tins)", price: 123_456)
            try await withBrowser(width: width, height: 1200, mobile: width < 600) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                for (path, form) in [("/console/sales", "#new-sale"), ("/console/coupons", "#new-coupon"), ("/console/news", "#news-editor")] {
                    try await browser.open(app.baseURL + path)
                    try await browser.waitFor(form)
                    try await browser.snapshot("fields-\(width)-\(path.split(separator: "/").last ?? "")")
                    // What a field holds: its `size` or placeholder in characters, a date and
                    // time's 16, a number's 6 digits, a list's longest choice, else 24 (a title, a
                    // code); each field at
                    // least that wide in its own font, or as wide as the form when that is less.
                    let narrow =
                        try await browser.script(
                            """
                            const form = document.querySelector(arguments[0]);
                            const ctx = document.createElement('canvas').getContext('2d');
                            return [...form.querySelectorAll('input:not([type=hidden]):not([type=checkbox]), select, textarea')].flatMap(e => {
                              const style = getComputedStyle(e);
                              ctx.font = style.font;
                              let text = e.tagName == 'SELECT' ? [...e.options].map(o => o.text).reduce((a, b) => a.length > b.length ? a : b, '')
                                : e.type == 'datetime-local' ? '2026-12-01 09:30 PM'
                                : e.type == 'number' ? '0'.repeat(Math.max(String(e.max || '').length, 6))
                                : '0'.repeat(Math.max(Number(e.getAttribute('size') || 0), (e.placeholder || '').length) || 24);
                              const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + parseFloat(style.borderLeftWidth) * 2 + (e.tagName == 'SELECT' ? 24 : 0);
                              const need = Math.min(ctx.measureText(text).width + pad, form.clientWidth);
                              const have = e.getBoundingClientRect().width;
                              return have + 1 < need ? [(e.name || e.id) + ' ' + Math.round(have) + '<' + Math.round(need)] : [];
                            });
                            """, [form]) as? [String]
                    #expect(narrow == [], "\(path) at \(width) px: fields narrower than what they hold: \(narrow ?? ["?"])")
                    let scroll = try await browser.script("return document.documentElement.scrollWidth") as? Int ?? .max
                    #expect(scroll <= width, "\(path) at \(width) px is \(scroll) px wide")
                }
            }
        }
    }

    /// A chain admin who signs in through the console's form.
    static func admin(_ app: TestApp) async throws -> ConsoleUser {
        let user = ConsoleUser(
            email: "admin-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "admin password", name: "Chain Admin")
        try await app.withDatabase { database in
            _ = try await Accounts(database: database, hasher: PasswordHasher(cost: 4)).createAdmin(
                email: user.email, name: user.name, password: user.password, logger: Logger(label: "test"))
        }
        return user
    }
}
