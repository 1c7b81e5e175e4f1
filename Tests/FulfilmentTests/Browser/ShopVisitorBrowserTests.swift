import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A visitor in Chromium (issue 45), at 360 px and at 1280 px, as a new shopper would: choose a
/// store, find a product by a typo, read its page, add it to a guest cart, be asked to sign up at
/// checkout, find the cart merged, check out; then cancel the order from its page. Every page on
/// the way is checked for labels, contrast, width and the focus ring.
@Suite("A visitor shops in Chromium, signs up at checkout, and cancels", .serialized)
struct ShopVisitorBrowserTests {
    @Test("a visitor becomes a customer at checkout, with their cart", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func visitorJourney(width: Int) async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay("00:00", "23:30", zone: "America/Jamaica", capacity: 5))
            let dry = try await app.createAisle(store: store, code: "3", name: "Rice & Grains", walkOrder: 1)
            let rice = try await app.createProduct(store: store, name: "Parboiled Rice 2 kg", price: 45_000, aisle: dry, bay: 1, shelf: "B")
            let slug = try #require(try await sql("SELECT slug FROM products WHERE id = $1", [rice], on: app.database)[0][0])
            let email = "visitor-\(UUID().uuidString.prefix(8).lowercased())@example.com"

            try await withBrowser(width: width, height: 900, mobile: width < 600) { browser in
                let base = app.baseURL
                try await browser.open(base + "/shop")
                try await browser.waitFor("#stores")
                try await ShopBrowserTests.checkPage(browser, "visitor-stores", width: width)
                try await browser.click("#store-\(store) button")
                try await browser.waitFor("#search")
                try await ShopBrowserTests.checkPage(browser, "visitor-home", width: width)

                // A typo finds it; its card links to its own page.
                try await browser.type("parbioled rice\n", into: "#q")
                try await browser.waitFor("#product-\(rice)")
                try await browser.click("#product-\(rice) h3 a")
                try await browser.waitFor("#add-to-cart")
                #expect(try await browser.currentURL.hasSuffix("/shop/products/\(slug)"))
                try await ShopBrowserTests.checkPage(browser, "visitor-product", width: width)
                try await browser.clear("#quantity")
                try await browser.type("2", into: "#quantity")
                try await browser.click("#add-to-cart")
                try await browser.waitFor("the cart to hold 2") { try await browser.text("#cart-count") == "(2)" }

                // Checkout asks them to sign up, and brings them back with the cart.
                try await browser.open(base + "/shop/cart")
                try await browser.waitFor("#to-checkout")
                try await ShopBrowserTests.checkPage(browser, "visitor-cart", width: width)
                try await browser.click("#to-checkout")
                try await browser.waitFor("#sign-in-to-continue")
                try await browser.click("#sign-in #register-link")
                try await browser.waitFor("#register")
                try await browser.type("Devon Clarke", into: "#name")
                try await browser.type(email, into: "#email")
                try await browser.type("correct horse battery", into: "#password")
                try await browser.type("correct horse battery", into: "#password-confirmation")
                try await browser.click("#register-button")
                try await browser.waitFor("#checkout-form")
                try await ShopBrowserTests.checkPage(browser, "visitor-checkout", width: width)
                #expect(try await browser.text("#checkout-total") == "JMD 900.00")
                let slot = try #require(
                    try await browser.script("return document.querySelector('input[name=pickupSlot]:not([disabled])').id") as? String)
                try await browser.click("label[for='\(slot)']")
                try await browser.click("#place-order")
                try await browser.waitFor("#receipt-qr")

                // Cancel it from the order's page, after the page that asks. (The live tracker may
                // redraw the page's actions as the order's first event arrives: follow the link's
                // address as it is now rather than an element that may be replaced.)
                let cancel = try #require(
                    try await browser.script("return document.getElementById('cancel-order').getAttribute('href')") as? String)
                #expect(cancel.hasSuffix("/cancel"))
                try await browser.open(base + cancel)
                try await browser.waitFor("#confirm-cancel")
                try await ShopBrowserTests.checkPage(browser, "visitor-cancel", width: width)
                try await browser.click("#confirm-cancel")
                try await browser.waitFor("#order-status")
                #expect(try await browser.text("#order-status") == "Cancelled")
            }
            #expect(try await app.stock(store: store, product: rice).reserved == 0)
            #expect(try await sql("SELECT count(*) FROM guest_carts", on: app.database) == [["0"]])
        }
    }
}
