import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite(
    "The order board and the customer's receipt in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct BoardAndReceiptBrowserTests {
    @Test("staff of store A see A's open orders and none of B's; pack and cancel from the board", .timeLimit(.minutes(3)))
    func board() async throws {
        try await withApp { app in
            let storeA = try await app.createStore(name: "Store A")
            let storeB = try await app.createStore(name: "Store B")
            let staff = try await app.storeAccount(.staff, store: storeA)
            let (_, first, _) = try await app.placeOrder(store: storeA)
            let (_, second, _) = try await app.placeOrder(store: storeA)
            let (_, elsewhere, _) = try await app.placeOrder(store: storeB)
            let firstNumber = first["number"].int!
            let secondNumber = second["number"].int!

            try await withBrowser { browser in
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.waitFor("#board-pending")
                let pending = try await browser.text("#board-pending")
                #expect(pending.contains("\(firstNumber)"))
                #expect(pending.contains("\(secondNumber)"))
                #expect(try await browser.find("#order-\(firstNumber)").isEmpty == false)
                #expect(try await browser.count("#order-\(elsewhere["number"].int!)") == 0)
                try await browser.snapshot("board")

                try await browser.click("#packaged-\(firstNumber)")
                try await browser.waitFor("#board-note")
                #expect(try await browser.text("#board-note") == "Order \(firstNumber) is now packaged.")
                #expect(try await browser.text("#board-packaged").contains("\(firstNumber)"))

                try await browser.type("Customer called", into: "#order-\(secondNumber) input[name=reason]")
                try await browser.click("#cancelled-\(secondNumber)")
                try await browser.waitFor("the cancellation") { try await browser.text("#board-note") == "Order \(secondNumber) is now cancelled." }
                #expect(try await browser.count("#order-\(secondNumber)") == 0)
            }
            let reason = try await sql(
                "SELECT reason FROM order_events WHERE order_id = $1 AND to_status = 'cancelled'", [second["id"].string!], on: app.database)
            #expect(reason.first?.first == "Customer called")
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [elsewhere["id"].string!], on: app.database)[0][0] == "pending")
        }
    }

    @Test("the board groups open orders by pickup slot, earliest first, and flags the late ones", .timeLimit(.minutes(3)))
    func boardBySlot() async throws {
        let clock = TestClock("2027-03-26T10:00:00Z")
        try await withApp(clock: clock) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2))
            let staff = try await app.storeAccount(.staff, store: store)
            var numbers: [Int] = []
            for slot in ["2027-03-26T14:00:00Z", "2027-03-26T12:00:00Z", "2027-03-26T14:00:00Z"] {
                let (customer, _) = try await app.shopper(at: store)
                numbers.append(try #require(try await app.checkout(customer, slot: slot).json["number"].int))
            }
            // 13:10: the 12:00 slot is over and its order not collected.
            clock.set("2027-03-26T13:10:00Z")
            try await withBrowser { browser in
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.waitFor("#board-pending")
                // Group headings are set in capitals by the style sheet.
                let pending = try await browser.text("#board-pending").uppercased()
                let early = try #require(pending.range(of: "SLOT FRI 26 MAR 12:00–12:30 (1)"))
                let later = try #require(pending.range(of: "SLOT FRI 26 MAR 14:00–14:30 (2)"))
                #expect(early.lowerBound < later.lowerBound)
                #expect(try await browser.text("#order-\(numbers[1]) .slot") == "12:00–12:30 Late")
                #expect(try await browser.text("#late-\(numbers[1])") == "Late")
                #expect(try await browser.count("#late-\(numbers[0])") == 0)
                #expect(try await browser.text("#order-\(numbers[2]) .slot") == "14:00–14:30")
            }
        }
    }

    @Test("a customer sees their order with the QR receipt, which decodes (zbarimg) to their pickup code", .timeLimit(.minutes(3)))
    func receipt() async throws {
        let zbarimg = try #require(WebDriver.executable("zbarimg"), "zbarimg is not installed (apt-get install zbar-tools)")
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, session) = try await app.customerAccount()
            let product = try await app.addProduct(store: store, name: "Blue Mountain Coffee", price: 2500)
            try await app.fillCart(session, store: store, [(product, 1)])
            let order = try await app.checkout(session).json
            let token = try #require(order["pickupToken"].string)

            try await withBrowser(width: 800, height: 1400) { browser in
                try await browser.signIn(customer, at: app.baseURL)
                // A customer starts in the shop, at the store their cart is for.
                #expect(try await browser.currentURL == app.baseURL + "/shop")
                try await browser.open(app.baseURL + "/orders")
                try await browser.click("a[href='/orders/\(order["id"].string!)']")
                try await browser.waitFor("#receipt-qr")
                #expect(try await browser.text("#receipt .number") == "Order \(order["number"].int!)")
                // The console is not for customers.
                let shot = try await browser.snapshot("customer-order")
                let (status, output) = try await run(zbarimg, ["--raw", "-q", shot.path])
                #expect(status == 0, "zbarimg found no code: \(output)")
                #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == token)

                try await browser.open(app.baseURL + "/console/desk")
                try await browser.waitFor(".notice-refused")
                #expect(try await browser.text("h1") == "Not for you")
            }
        }
    }
}

/// Runs a program to completion, returning its exit status and standard output.
func run(_ executable: URL, _ arguments: [String]) async throws -> (Int32, String) {
    let ran = try await Subprocess.run(executable.path, arguments)
    return (ran.status, ran.output)
}
