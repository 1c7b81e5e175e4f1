import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The desk with bags (issue 47), in a real Chromium: after the scan it says where each bag is,
/// and the Hand over button counts the bags ticked; one left unticked is a sentence, not a hand-over.
@Suite(
    "The desk counts bags, in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct BagDeskBrowserTests {
    @Test(
        "three bags, two staged: the desk lists each with its place; two ticked is refused, all three hand over",
        .timeLimit(.minutes(3)), arguments: [360, 1280])
    func deskCountsBags(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let desk = try await app.storeAccount(.staff, store: store, name: "Dana Desk")
            let staffAPI = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let places = try await app.request(
                .put, "/v1/stores/\(store)/staging-places",
                json: ["places": [["name": "Shelf A", "kind": "shelf"], ["name": "Freezer", "kind": "freezer"]]], token: manager.token)
            #expect(places.status == .ok)
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = try #require(order["id"].string)
            let number = try #require(order["number"].int)
            let packed = try await app.request(
                .post, "/v1/orders/\(id)/transitions", json: ["to": "packaged", "bags": ["ambient", "chilled", "frozen"]], token: staffAPI.token)
            #expect(packed.status == .ok)
            for (bag, place) in [(1, 0), (3, 1)] {
                let staged = try await app.request(
                    .post, "/v1/bags/stage", json: ["bagCode": .string("\(number)-\(bag)"), "placeId": places.json["items"][place]["id"]],
                    token: staffAPI.token)
                #expect(staged.status == .ok, "\(staged.text)")
            }
            #expect(try await app.pay(order, by: staffAPI).status == .created)

            try await withBrowser(width: width, height: 1200, mobile: width == 360) { browser in
                try await browser.signIn(desk, at: app.baseURL)
                try await browser.type(try #require(order["pickupToken"].string) + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=ready]")
                #expect(try await browser.text("#bag-1") == "Bag 1 of 3: ambient, in Shelf A")
                #expect(try await browser.text("#bag-2") == "Bag 2 of 3: chilled, not staged")
                #expect(try await browser.text("#bag-3") == "Bag 3 of 3: frozen, in Freezer")
                if width == 360 { try await PhoneWidthBrowserTests.fits(browser, "desk-bags") }

                try await browser.click("#bag-check-1")
                try await browser.click("#bag-check-3")
                try await browser.click("#hand-over")
                try await browser.waitFor("#desk-note")
                #expect(try await browser.text("#desk-note").contains("This order has 3 bags"))
                #expect(try await browser.attribute("#verdict", "data-verdict") == "ready")

                for bag in 1...3 { try await browser.click("#bag-check-\(bag)") }
                try await browser.click("#hand-over")
                try await browser.waitFor("#verdict[data-verdict=handed_over]")
                try await browser.snapshot("desk-bags-handed-over-\(width)")
            }
            let handedOver = try await sql(
                "SELECT count(*) FROM order_bags WHERE order_id = $1 AND handed_over_at IS NOT NULL", [id], on: app.database)
            #expect(handedOver[0][0] == "3")
        }
    }
}
