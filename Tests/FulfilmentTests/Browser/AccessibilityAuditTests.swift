import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 45: every page passes an automated accessibility audit by a maintained rule engine,
/// axe-core (see ``Axe``), in Chromium on a 360 px phone and a 1280 px desktop, with no serious
/// or critical violation: the shop's pages as a visitor and as a signed-in customer, and the
/// console's as staff, a manager and the chain's admin. The data is the demo's (`DemoSeed` and
/// the orders, kerbside and community content `fulfilment seed --demo` adds), so the pages show
/// what a first `make run` shows: a substitute to decide, a customer at the kerb, news, recipes.
///
/// Besides the pages named here, each walk follows the links it finds (one page of each shape:
/// `/orders/{id}` once, `/shop?category=` once), so a page added later is audited as soon as a
/// page links to it. Every violation of any impact is written to `axe-<walk>.txt` under the test
/// output, with a screenshot of each page it names; the minor and moderate ones are there to
/// read, the serious and critical ones fail.
@Suite(
    "Every page passes axe-core's accessibility audit",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"),
    // One walk at a time: each keeps a Chromium busy for a minute or more.
    .serialized)
struct AccessibilityAuditTests {
    /// The audit is only worth its green if it sees what it must: grey text on white, an input
    /// without a label and an image without a text, put into a real page, each fail it.
    @Test("the audit itself: a faint text, an unlabelled input and an image without text fail it", .timeLimit(.minutes(2)))
    func auditFindsViolations() async throws {
        _ = try Axe.source()
        try await withApp { app in
            try await withBrowser { browser in
                try await browser.open(app.baseURL + "/")
                try await browser.waitFor("#email")
                #expect(try await Axe.run(in: browser).violations.filter(\.blocks).isEmpty)
                _ = try await browser.script(
                    """
                    var main = document.querySelector('main');
                    var p = document.createElement('p');
                    p.textContent = 'Faint text'; p.style.color = '#bbbbbb'; p.style.background = '#ffffff';
                    var input = document.createElement('input');
                    input.type = 'text'; input.id = 'unlabelled';
                    var img = document.createElement('img');
                    img.src = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='; img.id = 'no-text';
                    main.append(p, input, img);
                    """)
                let found = try await Axe.run(in: browser).violations.filter(\.blocks)
                #expect(Set(found.map(\.id)).isSuperset(of: ["color-contrast", "label", "image-alt"]), "\(Axe.describe(found))")
                #expect(found.first { $0.id == "label" }?.nodes.map(\.target) == ["#unlabelled"])
            }
        }
    }

    @Test("the shop, as a visitor and as a signed-in customer", .timeLimit(.minutes(8)), arguments: [360, 1280])
    func shop(width: Int) async throws {
        _ = try Axe.source()
        try await withApp { app in
            let demo = try await DemoFixture.load(app)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                let walk = AuditWalk(browser, base: app.baseURL, name: "shop-\(width)")
                // A visitor: the shop asks for a store first; then search, locate, a cart with a
                // line, and the pages that send them to sign in or sign up.
                walk.persona = "visitor"
                try await walk.audit("/shop")
                try await browser.click("#stores button[aria-label='Shop at \(DemoCatalogue.storeName)']")
                try await browser.waitFor("#q")
                try await walk.audit("/shop")
                try await walk.audit("/shop?q=rice")
                try await walk.addFirstProduct()
                for path in [
                    "/shop/locate?q=rice", "/shop/stores", "/shop/cart", "/shop/checkout", "/orders", "/shop/register", "/",
                    "/password-reset", "/password-reset/confirm?token=not-a-token", "/shop/news", "/shop/recipes", "/shop/no-such-page",
                ] {
                    try await walk.audit(path)
                }
                try await walk.crawl(shop: true)

                // The same browser signs in: the guest cart is merged, and the customer's pages,
                // with the demo orders in their three states, are audited.
                walk.persona = "customer"
                try await browser.signIn(demo.customer, at: app.baseURL)
                for path in ["/shop", "/shop?q=rice"] { try await walk.audit(path) }
                try await walk.addFirstProduct()
                for path in [
                    "/shop/locate?q=rice", "/shop/stores", "/shop/favourites", "/shop/news", "/shop/recipes", "/shop/cart", "/shop/checkout",
                    "/orders",
                ] {
                    try await walk.audit(path)
                }
                for order in demo.orders { try await walk.audit("/orders/\(order)") }
                let pending = demo.orders[1]
                for path in ["/orders/\(pending)/slot", "/orders/\(pending)/cancel", "/account", "/password-reset", "/shop/register", "/"] {
                    try await walk.audit(path)
                }
                try await walk.audit("/orders/no-such-order")
                try await walk.crawl(shop: true)
                try walk.finish()
            }
        }
    }

    @Test("the console, as staff, a manager and the chain's admin", .timeLimit(.minutes(8)), arguments: [360, 1280])
    func console(width: Int) async throws {
        _ = try Axe.source()
        try await withApp { app in
            let demo = try await DemoFixture.load(app)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                let walk = AuditWalk(browser, base: app.baseURL, name: "console-\(width)")
                walk.persona = "signed out"
                try await walk.audit("/")

                walk.persona = "staff"
                try await browser.signIn(demo.staff, at: app.baseURL)
                try await walk.audit("/console/desk")
                // The desk's verdict on a packed order not paid for yet: "pay first", with its buttons.
                try await browser.type(demo.token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=payment_required]")
                try await walk.audit(nil, as: "/console/desk (a verdict)")
                for path in [
                    "/console/orders", "/console/orders/\(demo.orders[0])", "/console/pick-lists", "/console/order-search?q=customer",
                ] {
                    try await walk.audit(path)
                }
                if let list = demo.pickList {
                    for path in ["/console/pick-lists/\(list)/pick", "/console/pick-lists/\(list)/print"] { try await walk.audit(path) }
                }
                for path in ["/account", "/console/no-such-page", "/console/stock"] { try await walk.audit(path) }
                try await walk.crawl(shop: false)

                walk.persona = "manager"
                try await walk.switchTo(demo.manager)
                for path in [
                    "/console/stock", "/console/stock?q=rice", "/console/sales", "/console/coupons", "/console/news", "/console/moderation",
                    "/console/mail", "/console/reports/sales", "/console/reports/on-time", "/console/reports/desk",
                    "/console/reports/picking", "/console/reports/products", "/console/reports/coupons", "/console/people",
                    "/console/settings",
                    "/console/products",
                    "/console/webhooks", "/console/catalogue/import",
                ] {
                    try await walk.audit(path)
                }
                // A mail as staff read it. Its HTML is in a sandboxed frame without script, which
                // axe cannot enter (its report says so: frame-tested, for a person to check).
                let message = try await browser.script("var a = document.querySelector(\"a[href^='/console/mail/']\"); return a && a.pathname")
                if let message = message as? String { try await walk.audit(message) }
                try await walk.crawl(shop: false)

                walk.persona = "admin"
                try await walk.switchTo(demo.admin)
                for path in [
                    "/console/stores", "/console/moderation", "/console/mail", "/console/reports/sales", "/console/reports/on-time",
                    "/console/reports/desk", "/console/reports/picking", "/console/reports/products", "/console/reports/coupons", "/account",
                    "/console/products",
                    "/console/products/new", "/console/categories", "/console/webhooks", "/console/catalogue/import",
                ] {
                    try await walk.audit(path)
                }
                try await walk.crawl(shop: false)
                try walk.finish()
            }
        }
    }
}

/// The demo store as `fulfilment seed --demo` loads it, with accounts whose passwords the test
/// knows: the catalogue and calendar, three orders of the customer (the first with a substitute
/// waiting for an answer on a pick list, the last packed with its customer at the kerb), news,
/// recipes, and a reader's report of one of them.
struct DemoFixture {
    var store: String
    var customer: ConsoleUser
    var staff: ConsoleUser
    var manager: ConsoleUser
    var admin: ConsoleUser
    /// The customer's orders' ids, oldest first.
    var orders: [String]
    /// The pickup token of the last order (packed, not paid).
    var token: String
    var pickList: String?

    static func load(_ app: TestApp) async throws -> DemoFixture {
        let logger = Logger(label: "test")
        let summary = try await app.withDatabase { try await DemoSeed.load(into: $0, logger: logger) }
        let store = StoreID(summary.storeID)
        let staff = try await app.storeAccount(.staff, store: store.description, name: "Demo Staff")
        let manager = try await app.storeAccount(.manager, store: store.description, name: "Demo Manager")
        let admin = try await PhoneWidthBrowserTests.admin(app)
        let customer = ConsoleUser(
            email: "customer-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "customer password", name: "Demo Customer")
        let signer = app.keyring.signer
        try await app.withDatabase { database in
            try await DemoHistory.insert(into: database, store: store, staffEmail: staff.email, logger: logger)
            _ = try await Accounts(database: database, hasher: PasswordHasher(cost: 4)).createCustomer(
                email: customer.email, name: customer.name, password: customer.password, logger: logger)
            let numbers = try await DemoOrders.place(
                into: database, signer: signer, customerEmail: customer.email, store: store, logger: logger)
            try await DemoKerbside.prepare(
                into: database, orders: numbers, store: store, staffEmail: staff.email, customerEmail: customer.email, logger: logger)
            try await DemoContent.prepare(
                into: database, store: store, managerEmail: manager.email, customerEmail: customer.email, logger: logger)
        }
        let orders = try await sql(
            "SELECT o.id FROM orders o JOIN users u ON u.id = o.customer_id WHERE u.email = $1 ORDER BY o.number", [customer.email],
            on: app.database
        ).compactMap { $0[0] }
        guard orders.count == 3 else { throw TestSetupError("the demo placed \(orders.count) orders, not 3") }
        let pickList = try await sql(
            "SELECT id FROM pick_lists WHERE store_id = $1 LIMIT 1", [store.description], on: app.database
        ).first?[0]
        // A reader reports a recipe, so moderation has something to show.
        let recipe = try await sql("SELECT id FROM recipes ORDER BY created_at LIMIT 1", on: app.database).first?[0] ?? ""
        let reader = try await app.registerCustomer()
        let report = try await app.request(
            .post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(recipe), "reason": "Not a recipe: an advert"], token: reader.token)
        guard report.status == .created else { throw TestSetupError("report: \(report.status) \(report.text)") }
        let session = try await app.request(
            .post, "/v1/auth/login", json: ["email": .string(customer.email), "password": .string(customer.password)])
        let order = try await app.request(.get, "/v1/orders/\(orders[2])", token: session.json["token"].string)
        guard let token = order.json["pickupToken"].string else { throw TestSetupError("no pickup token: \(order.status) \(order.text)") }
        return DemoFixture(
            store: store.description, customer: customer, staff: staff, manager: manager, admin: admin, orders: orders, token: token,
            pickList: pickList)
    }
}

/// One browser's walk through the pages: each audited with axe-core, its serious and critical
/// violations expected to be none, everything found kept for the report. The links on every
/// page audited are kept too, for `crawl`.
final class AuditWalk {
    let browser: WebDriver
    let base: String
    let name: String
    /// Who is looking: a new person sees every page again.
    var persona = "" {
        didSet {
            seen = []
            links = []
        }
    }
    /// The shapes of the pages audited for this person (`/orders/{id}`, `/shop?q`).
    private var seen: Set<String> = []
    /// The same-origin links on the pages audited for this person, in the order found.
    private var links: [String] = []
    private var report: [String] = []
    private var audits = 0

    init(_ browser: WebDriver, base: String, name: String) {
        self.browser = browser
        self.base = base
        self.name = name
    }

    /// Opens `path` (nil: the page as it is, named `label`) and audits it.
    func audit(_ path: String?, as label: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if let path { try await browser.open(base + path) }
        try await browser.waitFor("the page to load") {
            try await browser.script("return document.readyState") as? String == "complete"
        }
        let landed = String(try await browser.currentURL.dropFirst(base.count))
        if let path { seen.insert(Self.shape(path)) }
        seen.insert(Self.shape(landed))
        let page = "\(persona) \(label ?? path ?? landed)" + (path != nil && landed != path ? " (→ \(landed))" : "")
        let audit = try await Axe.run(in: browser)
        let violations = audit.violations
        audits += 1
        // A page with anything to read about is saved as a screenshot beside the report.
        var shot = ""
        if !violations.isEmpty || !audit.review.isEmpty {
            shot = " [axe-\(name)-\(audits).png]"
            try await browser.snapshot("axe-\(name)-\(audits)")
        }
        report.append(
            "\(page)\(shot): " + (violations.isEmpty ? "no violations" : "\(violations.count) rule(s) broken\n  " + Axe.describe(violations))
                + (audit.review.isEmpty ? "" : "\n  for a person to check (axe could not tell):\n  " + Axe.describe(audit.review)))
        try finish()  // after every page, so a walk that stops half-way still leaves its report
        let blocking = violations.filter(\.blocks)
        #expect(
            blocking.isEmpty, "\(name), \(page): serious or critical accessibility violations:\n  \(Axe.describe(blocking))",
            sourceLocation: sourceLocation)
        let found =
            try await browser.script(
                """
                return Array.prototype.map.call(document.querySelectorAll('a[href]'), function (a) {
                  return a.origin === location.origin ? a.pathname + a.search : '';
                });
                """) as? [String] ?? []
        for link in found where !link.isEmpty && !links.contains(link) { links.append(link) }
    }

    /// Follows the links found on the pages audited for this person, breadth first, and audits
    /// every page of a shape not audited yet (and then its links): in the shop everything but
    /// the console, in the console its pages and the account. At most `limit` pages more.
    func crawl(shop: Bool, limit: Int = 25) async throws {
        var next = 0
        var audited = 0
        // Pages whose ids the shape does not see (a new kind of slug) are still one page each:
        // at most five under one folder.
        var siblings: [String: Int] = [:]
        while next < links.count, audited < limit {
            let link = links[next]
            next += 1
            let folder = String(Self.shape(link).prefix { $0 != "?" }.split(separator: "/").dropLast().joined(separator: "/"))
            guard Self.followable(link, shop: shop), !seen.contains(Self.shape(link)), siblings[folder, default: 0] < 5 else { continue }
            siblings[folder, default: 0] += 1
            try await audit(link)
            audited += 1
        }
    }

    /// Signs out, then in as `user`.
    func switchTo(_ user: ConsoleUser) async throws {
        try await browser.open(base + "/account")
        try await browser.click("#sign-out")
        try await browser.waitFor("#sign-in")
        try await browser.signIn(user, at: base)
    }

    /// Adds the first product on the page to the cart and waits for the cart's count to show it.
    func addFirstProduct() async throws {
        let before = try await browser.text("#cart-count")
        try await browser.click("form.add button")
        try await browser.waitFor("the cart's count to change") { try await browser.text("#cart-count") != before }
    }

    /// Writes everything found to `axe-<name>.txt` under the test output.
    func finish() throws {
        let text = "axe-core audit, \(name): \(audits) pages\n\n" + report.joined(separator: "\n\n") + "\n"
        try TestOutput.save(Data(text.utf8), as: "axe-\(name).txt")
    }

    /// Links the walk follows: GET pages only, never a download, an event stream, a mail's
    /// framed body, a provider's sign-in (another site) or an asset.
    static func followable(_ link: String, shop: Bool) -> Bool {
        let path = String(link.prefix { $0 != "?" })
        let excluded = ["/account/export", "/console/events", "/console/assets/", "/signin/", "/unsubscribe"]
        if excluded.contains(where: { path.hasPrefix($0) }) || path.hasSuffix("/events") || path.hasSuffix("/body") { return false }
        if shop { return !path.hasPrefix("/console") }
        return path.hasPrefix("/console/") || path == "/account"
    }

    /// A path segment that names one thing of many: a UUID, a number, or a slug ending in the
    /// start of its id (`/shop/products/jamaican-ackee-540g-1f2e3d4c`).
    static func isID(_ segment: Substring) -> Bool {
        if UUID(uuidString: String(segment)) != nil || (!segment.isEmpty && segment.allSatisfy(\.isNumber)) { return true }
        let tail = segment.split(separator: "-").last ?? ""
        return segment.contains("-") && tail.count == 8 && tail.allSatisfy(\.isHexDigit)
    }

    /// A page's shape: its path with ids as `{id}`, and its query's names without their values.
    static func shape(_ link: String) -> String {
        let parts = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0].split(separator: "/", omittingEmptySubsequences: false).map { segment in
            isID(segment) ? "{id}" : String(segment)
        }.joined(separator: "/")
        guard parts.count > 1 else { return path }
        let names = parts[1].split(separator: "&").map { $0.prefix { $0 != "=" } }.sorted()
        return path + "?" + names.joined(separator: "&")
    }
}
