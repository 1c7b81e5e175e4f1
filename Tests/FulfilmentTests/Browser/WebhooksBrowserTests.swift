import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium, as a manager wires up a partner without `curl`: add the partner's
/// address (a wrong one is refused with what was typed kept), copy the secret shown once, send a
/// test the partner verifies with it, see an order's delivery and send it again, stop and start
/// the endpoint, make a new secret after saying so, and remove it. At 360 px and at 1280 px.
@Suite(
    "Webhooks: a partner wired up from the console, in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct WebhooksBrowserTests {
    @Test("add, test, deliveries, send again, stop and start, a new secret, remove", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func partner(width: Int) async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.storeAccount(.manager, store: store)
                try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                    try await browser.signIn(manager, at: app.baseURL)
                    try await browser.click("a[href='/console/webhooks']")
                    try await browser.waitFor("#no-webhooks")
                    try await ShopBrowserTests.checkPage(browser, "console-webhooks", width: width)

                    try await browser.type("ftp://partner.example/hook", into: "#webhook-url")
                    try await browser.type("Deliveries app", into: "#webhook-description")
                    try await browser.click("#type-order-placed")
                    try await browser.click("#add-webhook")
                    try await browser.waitFor("#webhooks-note.notice-refused")
                    #expect(try await browser.text("#webhooks-note").contains("http:// or https://"))
                    #expect(try await browser.attribute("#webhook-description", "value") == "Deliveries app", "what was typed is kept")
                    #expect(try await browser.script("return document.querySelector('#type-order-placed').checked") as? Bool == true)
                    try await browser.clear("#webhook-url")
                    try await browser.type(receiver.url("/ok"), into: "#webhook-url")
                    try await browser.click("#add-webhook")
                    try await browser.waitFor("#webhook-secret")
                    let secret = try await browser.text("#webhook-secret")
                    #expect(secret.hasPrefix("whsec_"))
                    try await ShopBrowserTests.checkPage(browser, "console-webhook", width: width)

                    // The test reaches the partner, signed with the secret just shown.
                    try await browser.click("#test-webhook")
                    try await browser.waitFor("the test") { try await browser.text("#webhook-note").hasPrefix("The test was delivered") }
                    #expect(try await browser.count("#webhook-secret") == 0, "the secret is shown once")
                    let hit = try #require(try await receiver.waitForHits(1, to: "/ok").first)
                    #expect(try WebhookVerifiers.verifyIndependently(secret: secret, hit: hit))

                    // An order: its delivery is listed, and can be sent again.
                    _ = try await app.placeOrder(store: store)
                    _ = try await receiver.waitForHits(2, to: "/ok")
                    let endpoint = try await sql("SELECT id FROM webhook_endpoints WHERE store_id = $1", [store], on: app.database)[0][0]!
                    try await browser.waitFor("the delivery") {
                        try await browser.open(app.baseURL + "/console/webhooks/\(endpoint)")
                        return try await browser.text("#deliveries").contains("Delivered")
                    }
                    #expect(try await browser.text("#deliveries").contains("order.placed"))
                    try await browser.click("#deliveries button")
                    try await browser.waitFor("#webhook-note")
                    #expect(try await browser.text("#webhook-note") == "The order.placed delivery goes again within a few seconds.")
                    _ = try await receiver.waitForHits(3, to: "/ok")

                    try await browser.click("#disable-webhook")
                    try await browser.waitFor("#enable-webhook")
                    #expect(try await browser.text("#webhook-status").hasPrefix("Disabled"))
                    try await browser.click("#enable-webhook")
                    try await browser.waitFor("#disable-webhook")

                    // A new secret only once the box is ticked.
                    try await browser.click("#rotate-secret")
                    try await browser.waitFor("#webhook-note.notice-refused")
                    #expect(try await browser.count("#webhook-secret") == 0)
                    try await browser.click("#confirm-rotate")
                    try await browser.click("#rotate-secret")
                    try await browser.waitFor("#webhook-secret")
                    #expect(try await browser.text("#webhook-secret") != secret)

                    // A partner that refuses: said in red, with its status.
                    try await browser.clear("#webhook-url")
                    try await browser.type(receiver.url("/fail"), into: "#webhook-url")
                    try await browser.click("#save-webhook")
                    try await browser.waitFor("the save") { try await browser.text("#webhook-note").hasPrefix("Saved") }
                    try await browser.click("#test-webhook")
                    try await browser.waitFor("#webhook-note.notice-refused")
                    #expect(try await browser.text("#webhook-note").contains("HTTP 500"))

                    try await browser.click("#confirm-delete")
                    try await browser.click("#delete-webhook")
                    try await browser.waitFor("#no-webhooks")
                    #expect(try await browser.text("#webhooks-note") == "The endpoint and its deliveries were removed.")
                }
                #expect(try await sql("SELECT count(*)::text FROM webhook_endpoints WHERE store_id = $1", [store], on: app.database) == [["0"]])
            }
        }
    }
}
