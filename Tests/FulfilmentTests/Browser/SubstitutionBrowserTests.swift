import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite(
    "Substitutions and arrivals in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct SubstitutionBrowserTests {
    @Test(
        "a picker substitutes in pick mode, the customer rejects through the API and arrives at bay 3, the desk hears it live and says TAKE OUT before the hand-over",
        .timeLimit(.minutes(3)))
    func substituteRejectTakeOut() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop(substitutePrice: 800)
            let picker = try await app.storeAccount(.staff, store: shop.store, name: "Pat Picker")
            let desk = try await app.storeAccount(.staff, store: shop.store, name: "Dana Desk")

            try await withBrowser(width: 360, height: 800, mobile: true) { browser in
                try await browser.signIn(picker, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/pick-lists/\(shop.pickList)/pick")
                try await browser.waitFor("#stop[data-stop='1']")
                #expect(try await browser.text("#sub-pref-A") == "sub: best match")
                // One tin on the shelf of three: pick it, then give two of the other brand.
                try await browser.clear("#quantity")
                try await browser.type("1", into: "#quantity")
                try await browser.click("#scan-pick")
                try await browser.waitFor("the pick") { try await browser.text("#pick-note") == "Picked 1 of 3." }
                try await browser.clear("#substitute-quantity-A")
                try await browser.type("2", into: "#substitute-quantity-A")
                try await browser.type(shop.substituteBarcode + "\n", into: "#substitute-barcode-A")
                try await browser.waitFor("the substitution") { try await browser.text("#pick-note").hasPrefix("Substituted 2 × Ackee (Brand B)") }
                #expect(try await browser.text("#tote-A").contains("2 substituted"))
                try await browser.snapshot("pick-substituted")
                try await browser.click("#complete")
                try await browser.waitFor("the completion") { try await browser.text("#pick-note").contains("1 order(s) packaged") }
            }

            // The customer says no to the other brand, through the API.
            var order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
            let substitution = try #require(order["lines"].array.compactMap { $0["substitute"]["id"].string }.first)
            #expect(try await app.decide(shop, substitution, "reject").status == .ok)
            order = try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json
            #expect(order["total"]["amount"].int == 1_000)
            #expect(try await app.pay(order, by: shop.staff).status == .created)
            let token = try #require(order["pickupToken"].string)

            try await withBrowser { browser in
                try await browser.signIn(desk, at: app.baseURL)
                try await browser.waitFor("#no-arrivals")
                try await browser.waitFor("the live stream") { try await browser.attribute("body", "data-live") == "open" }
                let arrived = try await app.request(.post, "/v1/orders/\(shop.orderID)/arrival", json: ["bay": "3"], token: shop.customer.token)
                #expect(arrived.status == .ok, "\(arrived.text)")
                let number = try #require(order["number"].int)
                try await browser.waitFor("#arrival-\(number)")
                #expect(try await browser.text("#arrival-\(number)").contains("Bay 3"))

                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                #expect(try await browser.text("#take-out") == "TAKE OUT: 2 × Ackee (Brand B) (the customer rejected the substitute)")
                #expect(try await browser.text("#order-total") == "JMD 10.00")
                try await browser.snapshot("desk-take-out")
                try await browser.click("#hand-over")
                try await browser.waitFor("#verdict[data-verdict=handed_over]")
                try await browser.waitFor("the arrival gone") { try await browser.isDisplayed("#no-arrivals") }
            }
            #expect(try await app.stock(store: shop.store, product: shop.substitute) == (50, 0))
            #expect(try await app.stock(store: shop.store, product: shop.ackee) == (49, 0))
            #expect(try await app.unbalancedStock(store: shop.store).isEmpty)
        }
    }
}
