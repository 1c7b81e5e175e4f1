import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The console follows the store's events (issue 14): the board and the desk change when an
/// order does, without anyone reloading the page.
@Suite(
    "The console updates live in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct LiveConsoleBrowserTests {
    @Test("a new order appears on an open board, and a packed one moves group, without a reload", .timeLimit(.minutes(3)))
    func boardFollowsEvents() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.storeAccount(.staff, store: store)
            let staffAPI = try await app.signIn(role: .staff, store: store)
            try await withBrowser { browser in
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.waitFor("#board-pending")
                try await browser.waitFor("body[data-live=open]")
                // A reload would lose this.
                _ = try await browser.script("window.stillTheSamePage = true")

                let (_, order, _) = try await app.placeOrder(store: store)
                let number = order["number"].int!
                // Within 10 s: sooner than the board's slow fallback refresh (15 s), so only the
                // event stream can explain it.
                try await browser.waitFor("the new order", attempts: 100) { (try? await browser.find("#board-pending #order-\(number)")) != nil }
                #expect(try await app.transition(order["id"].string!, to: "packaged", by: staffAPI).status == .ok)
                try await browser.waitFor("the packed order", attempts: 100) { (try? await browser.find("#board-packaged #order-\(number)")) != nil }
                #expect(try await browser.count("#board-pending #order-\(number)") == 0)
                #expect(try await browser.script("return window.stillTheSamePage === true") as? Bool == true)
            }
        }
    }

    @Test("the desk's verdict changes when the scanned order is packed while the customer waits", .timeLimit(.minutes(3)))
    func deskFollowsEvents() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let desk = try await app.storeAccount(.staff, store: store)
            let staffAPI = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store)
            let token = try #require(order["pickupToken"].string)
            try await withBrowser { browser in
                try await browser.signIn(desk, at: app.baseURL)
                try await browser.type(token + "\n", into: "#token")
                try await browser.waitFor("#verdict[data-verdict=not_ready]")
                _ = try await browser.script("window.stillTheSamePage = true")
                // The page opens its stream once loaded: the change comes after that.
                try await browser.waitFor("body[data-live=open]")
                #expect(try await app.transition(order["id"].string!, to: "packaged", by: staffAPI).status == .ok)
                try await browser.waitFor("#verdict[data-verdict=payment_required]")
                #expect(try await browser.script("return window.stillTheSamePage === true") as? Bool == true)
            }
        }
    }
}
