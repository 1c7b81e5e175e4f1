import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 44 in Chromium at 360 px, as people meet it: a customer who forgot their password
/// follows the mailed link; one who changes their address confirms it from the new mailbox; a
/// manager reads the store's mail in the console. The links come out of the messages a real
/// SMTP server received.
@Suite(
    "Mail in Chromium: a forgotten password, a new address, the Mail page",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct MailBrowserTests {
    /// A mailed link, moved from the public address to the test server's.
    static func local(_ token: String, path: String, _ app: TestApp) -> String { app.baseURL + path + "?token=" + token }

    /// Nothing wider than the phone.
    static func fits(_ browser: WebDriver, _ name: String) async throws {
        let scrollWidth = try await browser.script("return document.documentElement.scrollWidth") as? Int ?? .max
        #expect(scrollWidth <= 360, "\(name): the page is \(scrollWidth) px wide on a 360 px phone")
        try await browser.snapshot("mail-\(name)-360")
    }

    @Test("forgot the password, a new one from the mailed link; then a new address confirmed from its mailbox", .timeLimit(.minutes(4)))
    func resetAndChangeEmail() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: MailOutboxTests.configure(server)) { app in
            let (customer, _) = try await app.customerAccount()
            try await withBrowser(width: 360, height: 800, mobile: true) { browser in
                try await browser.open(app.baseURL + "/")
                try await browser.click("#forgot-password")
                try await browser.waitFor("#password-reset")
                try await Self.fits(browser, "forgot")
                try await browser.type(customer.email, into: "#email")
                try await browser.click("#send-link")
                try await browser.waitFor("#reset-requested")
                try await app.waitForMail(settled: 1)
                let token = try #require(try await AccountMailTests.link(server, customer.email, path: "/password-reset/confirm"))

                try await browser.open(Self.local(token, path: "/password-reset/confirm", app))
                try await browser.waitFor("#new-password")
                try await Self.fits(browser, "new-password")
                try await browser.type("a brand new password", into: "#new-password-field")
                try await browser.type("a brand new password typo", into: "#new-password-again")
                try await browser.click("#set-password")
                try await browser.waitFor("#new-password-problem")
                #expect(try await browser.text("#new-password-problem").contains("does not match"))
                try await browser.type("a brand new password", into: "#new-password-field")
                try await browser.type("a brand new password", into: "#new-password-again")
                try await browser.click("#set-password")
                try await browser.waitFor("#password-set")
                // The same link again: refused, with a way on.
                try await browser.open(Self.local(token, path: "/password-reset/confirm", app))
                try await browser.waitFor("#link-refused")

                try await browser.signIn(ConsoleUser(email: customer.email, password: "a brand new password", name: customer.name), at: app.baseURL)
                try await browser.open(app.baseURL + "/account")
                try await browser.waitFor("#profile")
                try await Self.fits(browser, "account")
                let newAddress = "moved-\(UUID().uuidString.prefix(8).lowercased())@example.com"
                try await browser.clear("#profile input[name=email]")
                try await browser.type(newAddress, into: "#profile input[name=email]")
                try await browser.click("#save-profile")
                try await browser.waitFor("#pending-email")
                try await app.waitForMail(settled: 3)
                let confirm = try #require(try await AccountMailTests.link(server, newAddress, path: "/account/email/confirm"))
                try await browser.open(Self.local(confirm, path: "/account/email/confirm", app))
                try await browser.waitFor("#confirm-email")
                try await browser.click("#confirm-email-button")
                try await browser.waitFor("#email-confirmed")
            }
            let signIn = try await app.request(
                .post, "/v1/auth/login",
                json: [
                    "email": .string("\(try await sql("SELECT email FROM users WHERE name = 'Test Customer'", on: app.database)[0][0]!)"),
                    "password": "a brand new password",
                ])
            #expect(signIn.status == .ok)
        }
    }

    @Test("a manager reads the store's kept mail: the list, a message with its QR in place", .timeLimit(.minutes(3)))
    func mailPage() async throws {
        try await withApp(configure: MailOutboxTests.configure(nil)) { app in
            let store = try await app.createStore(name: "Corner Store Deli")
            let (_, order, _) = try await app.placeOrder(store: store)
            let manager = try await app.storeAccount(.manager, store: store)
            try await withBrowser(width: 360, height: 800, mobile: true) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/mail")
                try await browser.waitFor("#mail-kept")
                try await Self.fits(browser, "mail-list")
                try await browser.click("#mail a")
                try await browser.waitFor("#mail-subject")
                #expect(try await browser.text("#mail-subject") == "Your order #\(order["number"].int!) at Corner Store Deli")
                #expect(try await browser.text("#mail-status").contains("Not sent yet"))
                try await Self.fits(browser, "mail-message")
                // The order's page in the console lists the message too.
                try await browser.open(app.baseURL + "/console/orders/\(order["id"].string!)")
                try await browser.waitFor("#order-messages")
                #expect(try await browser.text("#order-messages").contains("Order placed"))
            }
            // The frame's document: sandboxed, the QR in place as an image zbarimg reads the token from.
            let cookie = try await app.consoleCookie(manager)
            let message = try await app.messages(.orderPlaced)[0].id
            let body = try await app.form(.get, "/console/mail/\(message)/body", cookie: cookie)
            #expect(body.status == .ok)
            #expect(body.headers[.init("Content-Security-Policy")!]?.hasPrefix("sandbox;") == true)
            let html = body.text
            let start = try #require(html.range(of: "data:image/png;base64,"))
            let base64 = html[start.upperBound...].prefix { $0 != "\"" }
            let png = try #require(Data(base64Encoded: String(base64)))
            let file = try TestOutput.save(png, as: "mail-qr.png")
            let zbarimg = try #require(WebDriver.executable("zbarimg"), "zbarimg is not installed (apt-get install zbar-tools)")
            let decoded = try await Subprocess.run(zbarimg.path, ["--raw", "-q", file.path])
            #expect(decoded.output.trimmingCharacters(in: .whitespacesAndNewlines) == order["pickupToken"].string)
        }
    }
}
