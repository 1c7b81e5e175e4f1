import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A visitor in Chromium (issue 45), at 360 px and at 1280 px, as a new shopper would: choose a
/// store, find a product by a typo, read its page, add it to a guest cart, be asked to sign up at
/// checkout, find the cart merged, check out; then cancel the order from its page. Every page on
/// the way is checked for labels, contrast, width and the focus ring. Later, as the store picks:
/// the customer refuses a substitute and moves the pickup time from the order's page; and a
/// second visitor finds a recipe, puts it in the cart (signing up on the way) and walks the
/// store in aisle order to find it.
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

    @Test(
        "later: a substitute refused and the pickup time moved from the order's page; a second visitor's recipe into the cart, found in walk order",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func substitutionSlotAndRecipe(width: Int) async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay("00:00", "23:30", zone: "America/Jamaica", capacity: 5))
            let produce = try await app.createAisle(store: store, code: "1", name: "Produce", walkOrder: 1)
            let dry = try await app.createAisle(store: store, code: "7", name: "Dry goods", walkOrder: 7)
            let ackee = try await app.createProduct(
                store: store, name: "Ackee (Brand A)", barcode: TestApp.ean13("20000000\(Int.random(in: 1000...9999))"),
                price: 1_000, aisle: dry)
            let otherBarcode = TestApp.ean13("21000000\(Int.random(in: 1000...9999))")
            let other = try await app.createProduct(store: store, name: "Ackee (Brand B)", barcode: otherBarcode, price: 800, aisle: dry)
            let (user, customer) = try await app.customerAccount()
            try await app.fillCart(customer, store: store, [(ackee, 2)])
            let slots = try await app.pickupSlots(store: store).json["items"].array.filter { $0["remaining"].int ?? 0 > 0 }
            let booked = try #require(slots.first?["start"].string)
            let placed = try await app.checkout(customer, slot: booked)
            #expect(placed.status == .created, "\(placed.text)")
            let order = try #require(placed.json["id"].string)
            let firstToken = placed.json["pickupToken"].string
            // The store picks: one tin short, one of the other brand offered instead.
            let staff = try await app.signIn(role: .staff, store: store)
            let list = try #require(
                try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(order)]], token: staff.token)
                    .json["id"].string)
            let offered = try await app.request(
                .post, "/v1/pick-lists/\(list)/substitutions",
                json: ["orderId": .string(order), "productId": .string(ackee), "quantity": 1, "substituteBarcode": .string(otherBarcode)],
                token: staff.token)
            let substitution = try #require(offered.json["id"].string, "\(offered.text)")

            try await withBrowser(width: width, height: 900, mobile: width < 600) { browser in
                let base = app.baseURL
                try await browser.signIn(user, at: base)
                try await browser.open(base + "/orders/\(order)")
                try await browser.waitFor("#decide-\(substitution)")
                try await ShopBrowserTests.checkPage(browser, "order-substitution", width: width)
                try await browser.click("#reject-\(substitution)")
                try await browser.waitFor("the refusal said") { try await browser.text("#notice").hasPrefix("You refused the substitute") }
                #expect(try await browser.count("#decide-\(substitution)") == 0)

                // Another time, from the order's page: none is chosen for them; they choose one.
                let change = try #require(
                    try await browser.script("return document.getElementById('change-slot').getAttribute('href')") as? String)
                try await browser.open(base + change)
                try await browser.waitFor("#move-order")
                try await ShopBrowserTests.checkPage(browser, "order-move", width: width)
                #expect(try await browser.script("return document.querySelector('input[name=pickupSlot]:checked') === null") as? Bool == true)
                // A time on the week's last day: another day than the one booked, whatever the
                // hour the test runs at.
                let lastDay = try #require(
                    try await browser.script(
                        "const days = document.querySelectorAll('#slot-days a'); return days[days.length - 1].getAttribute('href')")
                        as? String)
                try await browser.open(base + lastDay)
                try await browser.waitFor("#move-order")
                let bookedSeconds = String(Int(try Date(booked, strategy: .iso8601).timeIntervalSince1970))
                let later = try #require(
                    try await browser.script(
                        "return [...document.querySelectorAll('input[name=pickupSlot]:not([disabled])')].find(e => e.value != arguments[0]).id",
                        [bookedSeconds]) as? String)
                try await browser.click("label[for='\(later)']")
                try await browser.click("#move-order")
                try await browser.waitFor("the move said") { try await browser.text("#notice").hasPrefix("Your pickup time is changed") }
                try await browser.waitFor("#receipt-qr")
            }
            let moved = try await app.request(.get, "/v1/orders/\(order)", token: customer.token).json
            #expect(moved["pickupSlot"]["start"].string != booked)
            #expect(moved["pickupToken"].string != firstToken)
            #expect(moved["lines"].array.compactMap { $0["substitute"]["status"].string } == ["rejected"])
            #expect(try await app.stock(store: store, product: other).reserved == 0, "a refused substitute holds nothing")

            // A second visitor: a recipe, found by a search, put in the cart after signing up, and
            // walked in the store's aisle order.
            let lime = try await app.createProduct(store: store, name: "Lime", aisle: produce, bay: 2, shelf: "C")
            let sugar = try await app.addProduct(store: store, name: "Cane sugar")
            let cook = try await app.registerCustomer()
            let recipe = try #require(
                try await app.shareRecipe(
                    cook, title: "Ackee and limes", servings: 4, [("Ackee", ackee, 1), ("Sugar", sugar, 1), ("Limes", lime, 2)])["id"].string)
            try await withBrowser(width: width, height: 900, mobile: width < 600) { browser in
                let base = app.baseURL
                try await browser.open(base + "/shop")
                try await browser.waitFor("#stores")
                try await browser.click("#store-\(store) button")
                try await browser.waitFor("#search")
                try await browser.open(base + "/shop/recipes")
                try await browser.waitFor("#recipe-q")
                try await browser.type("limes\n", into: "#recipe-q")
                try await browser.waitFor("#recipe-\(recipe) h3 a")
                try await browser.click("#recipe-\(recipe) h3 a")
                try await browser.waitFor("#recipe-locate-list")
                try await ShopBrowserTests.checkPage(browser, "visitor-recipe", width: width)
                let walk = try #require(
                    try await browser.script(
                        "return [...document.querySelectorAll('#recipe-locate-list [id^=located-]')].map(e => e.id.slice(8))") as? [String])
                #expect(walk == [lime, ackee, sugar], "produce, then dry goods, then what has no place")

                // Filling the cart asks them to sign up, and brings them back to the recipe.
                try await browser.clear("#servings")
                try await browser.type("8", into: "#servings")
                try await browser.click("#recipe-to-cart")
                try await browser.waitFor("#sign-in #register-link")
                try await browser.click("#sign-in #register-link")
                try await browser.waitFor("#register")
                try await browser.type("Marcia Brown", into: "#name")
                try await browser.type("recipe-\(UUID().uuidString.prefix(8).lowercased())@example.com", into: "#email")
                try await browser.type("correct horse battery", into: "#password")
                try await browser.type("correct horse battery", into: "#password-confirmation")
                try await browser.click("#register-button")
                try await browser.waitFor("#recipe-cart-form")
                try await browser.clear("#servings")
                try await browser.type("8", into: "#servings")
                try await browser.click("#recipe-to-cart")
                try await browser.waitFor("the recipe added") {
                    try await browser.text("#notice").hasPrefix("Added to your cart for 8 servings: Ackee (Brand A) × 2, Cane sugar × 2, Lime × 4.")
                }
                #expect(try await browser.text("#cart-count") == "(8)")
            }
        }
    }
}
