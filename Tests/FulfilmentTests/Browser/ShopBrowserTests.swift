import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 28: a customer with no app shops in the web shop, on a phone (360 px) and on a desktop
/// (1280 px), the way they would: sign up, choose the store, search with a typo, add three
/// products, choose a pickup time (a full one is shown full), check out, show the QR (decoded
/// from a screenshot by zbarimg) and watch the tracker move, without reloading, when staff pack
/// the order in another session. Every page on the way is checked as a person with a keyboard,
/// a screen reader or weak eyes meets it: labels, contrast, visible focus, nothing wider than
/// the screen.
@Suite(
    "The web shop in Chromium, as a customer uses it",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct ShopBrowserTests {
    @Test("on a 360 px phone: sign up, search with a typo, three products, a slot, checkout, the QR, the live tracker", .timeLimit(.minutes(4)))
    func phone() async throws {
        try await journey(width: 360, mobile: true)
    }

    @Test("on a 1280 px desktop: the same journey", .timeLimit(.minutes(4)))
    func desktop() async throws {
        try await journey(width: 1280, mobile: false)
    }

    private func journey(width: Int, mobile: Bool) async throws {
        let zbarimg = try #require(WebDriver.executable("zbarimg"), "zbarimg is not installed (apt-get install zbar-tools)")
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay("08:00", "20:00", zone: "America/Jamaica", capacity: 2))
            let dry = try await app.createAisle(store: store, code: "6", name: "Rice & Grains", walkOrder: 1)
            let chilled = try await app.createAisle(store: store, code: "11", name: "Dairy", walkOrder: 2, zone: "chilled")
            let rice = try await app.createProduct(store: store, name: "Parboiled Rice 2 kg", price: 45_000, aisle: dry, bay: 1, shelf: "B")
            let milk = try await app.createProduct(store: store, name: "Coconut Milk 400 ml", price: 26_000, aisle: dry, bay: 3, shelf: "C")
            let cheese = try await app.createProduct(store: store, name: "Tastee Cheese 500 g", price: 98_000, aisle: chilled, bay: 2, shelf: "A")
            // A slot anyone could take is full: two other customers booked it. Not the very first:
            // on a loaded machine the journey below can outlast that slot's lead time, and a slot
            // that has closed is no longer listed at all.
            let slots = try await app.pickupSlots(store: store).json["items"].array
            let first = try #require(slots.dropFirst(min(2, max(slots.count - 1, 0))).first?["start"].string)
            for _ in 0..<2 {
                let (other, _) = try await app.shopper(at: store)
                #expect(try await app.checkout(other, slot: first).status == .created)
            }
            let fullID = "slot-\(Int64(try Date(first, strategy: .iso8601).timeIntervalSince1970))"
            let staff = try await app.signIn(role: .staff, store: store)
            let email = "shopper-\(UUID().uuidString.prefix(8).lowercased())@example.com"

            try await withBrowser(width: width, height: 900, mobile: mobile) { browser in
                let base = app.baseURL
                // Sign up from the sign-in page.
                try await browser.open(base + "/")
                try await browser.click("#register-link")
                try await browser.waitFor("#register")
                try await Self.checkPage(browser, "register", width: width)
                try await browser.type("Keisha Brown", into: "#name")
                try await browser.type(email, into: "#email")
                try await browser.type("correct horse battery", into: "#password")
                try await browser.type("correct horse battery", into: "#password-confirmation")
                try await browser.click("#register-button")
                try await browser.waitFor("#stores")
                try await Self.checkPage(browser, "stores", width: width)
                try await browser.click("#stores li:not(.current) button[aria-label='Shop at Test Store']")
                try await browser.waitFor("#search")

                // "Scan a barcode" only where this browser can read a product's barcode off the camera.
                let canScan = try await browser.canScan(["ean_13", "ean_8", "upc_a", "upc_e"])
                #expect(try await browser.isDisplayed("#scan-barcode") == canScan)

                // Search with a typo; the product says where it is.
                try await browser.type("parbioled rice\n", into: "#q")
                try await browser.waitFor("#product-\(rice)")
                try await Self.checkPage(browser, "search", width: width)
                #expect(try await browser.text("#product-\(rice) .where") == "Aisle 6 (Rice & Grains), bay 1, shelf B")
                #expect(try await browser.text("#product-\(rice) .stock") == "In stock")
                try await Self.add(browser, rice, quantity: 2, expecting: 2)
                try await browser.clear("#q")
                try await browser.type("cocnut milk\n", into: "#q")
                try await browser.waitFor("#product-\(milk)")
                try await Self.add(browser, milk, quantity: 1, expecting: 3)
                try await browser.clear("#q")
                try await browser.type("tastee chese\n", into: "#q")
                try await browser.waitFor("#product-\(cheese)")
                try await Self.add(browser, cheese, quantity: 1, expecting: 4)

                // The cart, re-priced: three lines, the total.
                try await browser.open(base + "/shop/cart")
                try await browser.waitFor("#cart")
                try await Self.checkPage(browser, "cart", width: width)
                let lines = try await browser.script("return document.querySelectorAll('li.cart-line').length") as? Int
                #expect(lines == 3)
                #expect(try await browser.text("#total") == "JMD 2,140.00")

                // A pickup time: the full slot is shown full and cannot be chosen.
                try await browser.click("#to-checkout")
                try await browser.waitFor("#checkout-form")
                try await Self.checkPage(browser, "checkout", width: width)
                // A day at a time: the full slot's day, by its link.
                let fullDay = LocalDate(try Date(first, strategy: .iso8601), in: TimeZone(identifier: "America/Jamaica")!).description
                try await browser.click("#day-\(fullDay)")
                try await browser.waitFor("#slots-\(fullDay)")
                #expect(try await browser.attribute("#\(fullID)", "disabled") != nil)
                #expect(try await browser.text("label[for='\(fullID)']").hasSuffix("(full)"))
                // Nothing is chosen for the customer: they choose a time themselves.
                #expect(try await browser.script("return document.querySelectorAll('input[name=pickupSlot]:checked').length") as? Int == 0)
                let chosen = try #require(
                    try await browser.script("return document.querySelector('input[name=pickupSlot]:not([disabled])').id") as? String)
                #expect(chosen != fullID)
                try await browser.click("label[for='\(chosen)']")
                try await browser.click("#place-order")
                try await browser.waitFor("#receipt-qr")
                try await Self.checkPage(browser, "order", width: width)
                let orderID = try #require(try await browser.currentURL.split(separator: "/").last?.split(separator: "?").first.map(String.init))

                // The QR, decoded off the screen, is the token the page gives as text, and the desk accepts it.
                let token = try await browser.text("#receipt-token")
                _ = try await browser.script("document.getElementById('receipt-qr').scrollIntoView()")
                let shot = try await browser.snapshot("shop-receipt-\(width)")
                let (status, output) = try await run(zbarimg, ["--raw", "-q", shot.path])
                #expect(status == 0, "zbarimg found no code: \(output)")
                #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == token)
                // The desk knows the token (a forged or unknown one is 422); this order is not packed or paid yet.
                let desk = try await app.scan(token, by: staff, preview: true)
                #expect([402, 409].contains(desk.status.code) && desk.errorCode?.contains("token") == false, "\(desk.status) \(desk.text)")

                // Staff pack it in another session: the tracker moves without a reload.
                try await browser.waitFor("the order's live stream") {
                    try await browser.script("return document.body.getAttribute('data-live')") as? String == "open"
                }
                _ = try await browser.script("window.keptAcrossUpdates = 'yes'")
                #expect(try await browser.text("#order-status") == "Placed")
                #expect(try await app.transition(orderID, to: "packaged", by: staff).status == .ok)
                try await browser.waitFor("the tracker to show Packed") { try await browser.text("#order-status") == "Packed" }
                #expect(try await browser.script("return window.keptAcrossUpdates") as? String == "yes")
                let done = try await browser.script("return document.querySelectorAll('#tracker li.done').length") as? Int
                #expect(done == 2)

                // "I'm here" at the kerb.
                try await browser.type("4", into: "#bay")
                try await browser.click("#im-here")
                try await browser.waitFor("#arrived")
                #expect(try await browser.text("#arrived").contains("bay 4"))

                // The locate page and the order history.
                try await browser.open(base + "/shop/locate?q=cheese")
                try await browser.waitFor("#locate-results")
                try await Self.checkPage(browser, "locate", width: width)
                #expect(try await browser.text("#locate-results").contains("Aisle 11 (Dairy), bay 2, shelf A"))
                try await browser.open(base + "/orders")
                try await browser.waitFor("a[href='/orders/\(orderID)']")
            }
        }
    }

    /// Adds `quantity` of `product` from its card; the cart's count in the navigation, updated in
    /// place by the page's script, becomes `expecting`.
    private static func add(_ browser: WebDriver, _ product: String, quantity: Int, expecting: Int) async throws {
        try await browser.clear("#qty-\(product)")
        try await browser.type(String(quantity), into: "#qty-\(product)")
        try await browser.click("#product-\(product) form.add button")
        try await browser.waitFor("the cart to hold \(expecting)") { try await browser.text("#cart-count") == "(\(expecting))" }
    }

    /// What every shop page must be for everyone: no input without a label, no text below 4.5:1
    /// against what is behind it, nothing wider than the screen, and a focus ring that shows
    /// where the keyboard is.
    static func checkPage(_ browser: WebDriver, _ name: String, width: Int) async throws {
        let unlabelled =
            try await browser.script(
                """
                return Array.prototype.filter.call(document.querySelectorAll('input, select, textarea'), function (el) {
                  return el.type !== 'hidden' && !(el.labels && el.labels.length) && !el.getAttribute('aria-label');
                }).map(function (el) { return el.name || el.id; });
                """) as? [String]
        #expect(unlabelled == [], "\(name): inputs without a label: \(unlabelled ?? [])")
        let lowContrast = try await browser.script(Self.contrastScript) as? [String]
        #expect(lowContrast == [], "\(name): text below 4.5:1: \(lowContrast ?? [])")
        let scrollWidth = try await browser.script("return document.documentElement.scrollWidth") as? Int ?? .max
        #expect(scrollWidth <= max(width, 800), "\(name): the page is \(scrollWidth) px wide")
        if width <= 400 { #expect(scrollWidth <= width, "\(name): the page is \(scrollWidth) px wide on a \(width) px phone") }
        // The keyboard: Tab from the top lands on a link, with a visible ring. On a loaded machine
        // a key can reach a page before it takes focus at all (focus stays on the body): press
        // again, up to three times; a page with nothing to focus still fails.
        var ring: [Any]?
        for _ in 0..<3 where (ring?[0] as? String ?? "BODY") == "BODY" {
            _ = try await browser.script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
            try await browser.press("\u{E004}")
            ring =
                try await browser.script(
                    """
                    var el = document.activeElement, s = getComputedStyle(el);
                    return [el.tagName, s.outlineStyle, parseFloat(s.outlineWidth)];
                    """) as? [Any]
        }
        #expect((ring?[0] as? String).map { ["A", "BUTTON", "INPUT"].contains($0) } == true, "\(name): Tab reached \(ring ?? [])")
        #expect(ring?[1] as? String != "none" && (ring?[2] as? Double ?? 0) >= 2, "\(name): no visible focus: \(ring ?? [])")
        try await browser.snapshot("shop-\(name)-\(width)")
    }

    /// WCAG's contrast ratio of each element's own text against the first opaque background
    /// behind it.
    static let contrastScript = """
        function channels(c) { var m = c.match(/[\\d.]+/g).map(Number); return { rgb: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 }; }
        function luminance(rgb) {
          var v = rgb.map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
          return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
        }
        function background(el) {
          for (; el; el = el.parentElement) {
            var c = channels(getComputedStyle(el).backgroundColor);
            if (c.a > 0.5) return c.rgb;
          }
          return [255, 255, 255];
        }
        var low = [];
        document.querySelectorAll('body *').forEach(function (el) {
          var own = Array.prototype.some.call(el.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
          if (!own || !el.getClientRects().length) return;
          var s = getComputedStyle(el);
          if (s.visibility === 'hidden' || el.closest('[hidden]')) return;
          var f = luminance(channels(s.color).rgb), b = luminance(background(el));
          var ratio = (Math.max(f, b) + 0.05) / (Math.min(f, b) + 0.05);
          if (ratio < 4.5) low.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
        });
        return low;
        """
}
