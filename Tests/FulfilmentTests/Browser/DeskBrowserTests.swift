import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The collection desk in a real Chromium: a keyboard-wedge scanner is a keyboard that types
/// the code and presses Enter, so the test does exactly that.
@Suite("The desk in a browser", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct DeskBrowserTests {
    @Test("the desk shows the order's pickup slot in the store's local time", .timeLimit(.minutes(3)))
    func deskShowsSlot() async throws {
        try await withApp(clock: TestClock("2027-03-26T10:00:00Z")) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(zone: "America/Jamaica"))
            let desk = try await app.storeAccount(.staff, store: store)
            let (customer, _) = try await app.shopper(at: store)
            let order = try await app.checkout(customer, slot: "2027-03-26T19:30:00Z").json
            let token = try #require(order["pickupToken"].string)
            try await withBrowser { browser in
                try await browser.signIn(desk, at: app.baseURL)
                // The camera button only where this browser can read a QR code off the camera
                // (issue 46: it showed and did nothing where it could not).
                #expect(try await browser.isDisplayed("#camera") == (try await browser.canScan(["qr_code"])))
                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=not_ready]")
                #expect(try await browser.text("#pickup-slot") == "Fri 26 Mar 14:30–15:00")
            }
        }
    }

    @Test("scan, see pay first, take cash, hand over, scan again: already collected, by whom and when", .timeLimit(.minutes(3)))
    func deskFlow() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let desk = try await app.storeAccount(.staff, store: store, name: "Dana Desk")
            let staffAPI = try await app.signIn(role: .staff, store: store)
            let (_, order, product) = try await app.placeOrder(store: store, quantity: 2, price: 750)
            let token = try #require(order["pickupToken"].string)
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staffAPI).status == .ok)

            try await withBrowser { browser in
                try await browser.signIn(desk, at: app.baseURL)
                #expect(try await browser.currentURL == app.baseURL + "/console/desk")
                #expect(try await browser.script("return document.activeElement.id") as? String == "token")
                try await browser.snapshot("desk-idle")

                // The scanner types the code and presses Enter.
                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=payment_required]")
                #expect(try await browser.text(".verdict-word").uppercased() == "PAY FIRST")
                #expect(try await browser.text("#customer-name") == "Test Customer")
                #expect(try await browser.text("#amount-due") == "JMD 15.00")
                #expect(try await browser.text("#verdict").contains("2 ×"))
                try await browser.snapshot("desk-pay-first")

                // Scanners repeat: the same code again within the window counts once. The window is
                // two seconds; widened here so a slow test machine cannot turn a repeat into a new scan.
                #expect(try await browser.attribute("#scan-form", "data-repeat-window-ms") == "2000")
                _ = try await browser.script("document.getElementById('scan-form').setAttribute('data-repeat-window-ms', '600000')")
                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("the repeat note") { try await browser.isDisplayed("#repeat-note") }
                #expect(try await browser.attribute("#verdict", "data-verdict") == "payment_required")

                try await browser.click("#pay-cash")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                #expect(try await browser.text("#desk-note") == "Paid JMD 15.00 by cash.")
                #expect(try await browser.text("#amount-due") == "JMD 0.00")
                try await browser.snapshot("desk-ready")

                try await browser.click("#hand-over")
                try await browser.waitFor("#verdict[data-verdict=handed_over]")
                #expect(try await browser.text(".verdict-word").uppercased() == "HANDED OVER")
                #expect(try await browser.script("return document.activeElement.id") as? String == "token")
                #expect(try await browser.script("return document.getElementById('token').value") as? String == "")
                try await browser.snapshot("desk-handed-over")

                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=already_collected]")
                let detail = try await browser.text("#verdict-detail")
                #expect(detail.contains("by Dana Desk"))
                #expect(detail.contains("UTC"))
                try await browser.snapshot("desk-already-collected")

                try await browser.type("FC1:NOT-A-CODE\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=invalid_token]")
                #expect(try await browser.text(".verdict-word").uppercased() == "INVALID CODE")
            }

            let row = try await sql(
                "SELECT o.status, u.name FROM orders o JOIN users u ON u.id = o.collected_by WHERE o.id = $1",
                [order["id"].string!], on: app.database)
            #expect(row.first == ["completed", "Dana Desk"])
            #expect(try await app.stock(store: store, product: product) == (8, 0))
            #expect(try await sql("SELECT count(*) FROM payments WHERE order_id = $1", [order["id"].string!], on: app.database)[0][0] == "1")
        }
    }

    @Test("an 18+ order: hand-over refused until the ID box is ticked; a second customer without ID leaves the beer behind", .timeLimit(.minutes(3)))
    func ageRestricted() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let desk = try await app.storeAccount(.staff, store: store, name: "Dana Desk")
            let staffAPI = try await app.signIn(role: .staff, store: store)
            let beer = try await app.addProduct(store: store, name: "Red Stripe", price: 500, onHand: 10)
            let bread = try await app.addProduct(store: store, name: "Hard dough bread", price: 300, onHand: 10)
            try await sql("UPDATE products SET minimum_age = 18 WHERE id = $1", [beer], on: app.database)
            var orders: [JSONValue] = []
            for _ in 0..<2 {
                let customer = try await app.registerCustomer()
                try await app.fillCart(customer, store: store, [(beer, 1), (bread, 1)])
                let order = try await app.checkout(customer).json
                #expect(try await app.transition(order["id"].string!, to: "packaged", by: staffAPI).status == .ok)
                orders.append(order)
            }
            #expect(try await app.pay(orders[0], by: staffAPI).status == .created)

            try await withBrowser { browser in
                try await browser.signIn(desk, at: app.baseURL)
                try await browser.type(orders[0]["pickupToken"].string! + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                #expect(try await browser.text("#id-check").contains("18 or over"))
                try await browser.snapshot("desk-id-check")

                try await browser.click("#hand-over")
                try await browser.waitFor("#desk-note")
                #expect(try await browser.text("#desk-note").contains("confirm their ID"))
                #expect(try await browser.attribute("#verdict", "data-verdict") == "ready")

                try await browser.click("#id-checked")
                try await browser.click("#hand-over")
                try await browser.waitFor("#verdict[data-verdict=handed_over]")
                #expect(try await browser.text("#id-confirmed").contains("confirmed by Dana Desk, seen"))

                // The second customer has no ID: the beer stays, the bread goes.
                try await browser.type(orders[1]["pickupToken"].string! + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=payment_required]")
                #expect(try await browser.text("#amount-due") == "JMD 8.00")
                try await browser.click("#remove-restricted")
                try await browser.waitFor("#desk-note")
                #expect(try await browser.text("#desk-note") == "Age-restricted lines removed. New total JMD 3.00.")
                #expect(try await browser.text("#amount-due") == "JMD 3.00")
                try await browser.click("#pay-cash")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                #expect(try await browser.count("#id-checked") == 0)
                try await browser.click("#hand-over")
                try await browser.waitFor("#verdict[data-verdict=handed_over]")
            }
            let check = try await sql(
                "SELECT c.method, u.name FROM id_checks c JOIN users u ON u.id = c.confirmed_by WHERE c.order_id = $1",
                [orders[0]["id"].string!], on: app.database)
            #expect(check.first == ["seen", "Dana Desk"])
            #expect(try await sql("SELECT count(*) FROM id_checks WHERE order_id = $1", [orders[1]["id"].string!], on: app.database)[0][0] == "0")
            #expect(try await app.stock(store: store, product: beer) == (9, 0))
            #expect(try await app.stock(store: store, product: bread) == (8, 0))
        }
    }
}
