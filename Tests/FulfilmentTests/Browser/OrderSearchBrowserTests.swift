import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium, as a manager meets it: Mrs Brown rings about an order packed short. The
/// manager finds it from the board by her name, reads on its page what each line cost at checkout
/// and costs now, and records the refund paid back from the till. At 360 px and at 1280 px.
@Suite(
    "Finding an order and paying back what it owes, in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct OrderSearchBrowserTests {
    @Test("find by name from the board, read the lines against checkout, record the refund", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func findAndRefund(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 3, price: 1000, method: "prepaid")
            let id = order["id"].string!
            let paid = #"{"id": "evt_\#(width)", "type": "payment.succeeded", "orderId": "\#(id)", "amount": {"amount": 3000, "currency": "JMD"}}"#
            #expect(try await app.webhook(paid).json["outcome"].string == "paid")
            try await PaymentTests().packShort(app, store: store, order: order, picked: 1, by: staff)
            try await sql("UPDATE users SET name = 'Marcia Brown' WHERE id = $1", [customer.userID], on: app.database)
            _ = try await app.placeOrder(store: store)  // someone else's, not found by her name

            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.type("brown\n", into: "#order-search-q")
                try await browser.waitFor("#search-results")
                #expect(try await browser.count("#search-results tbody tr") == 1)
                #expect(try await browser.text("#found-\(order["number"].int!)").contains("Marcia Brown"))
                try await ShopBrowserTests.checkPage(browser, "console-order-search", width: width)

                try await browser.click("#found-\(order["number"].int!) a")
                try await browser.waitFor("#order-lines")
                #expect(try await browser.text("#line-1").contains("Picked short: 1 of 3"))
                #expect(try await browser.text("#line-1").contains("JMD 30.00"), "at checkout")
                #expect(try await browser.text("#line-1").contains("JMD 10.00"), "now")
                #expect(try await browser.text("#refund-due").contains("JMD 20.00"))
                #expect(try await browser.text("#order-payments").contains("online"))
                try await ShopBrowserTests.checkPage(browser, "console-order-owing", width: width)

                try await browser.type("Cash from the till", into: "#refund-note")
                try await browser.click("#record-refund")
                try await browser.waitFor("#order-note")
                #expect(try await browser.text("#order-note").contains("JMD 20.00 paid back"))
                #expect(try await browser.count("#order-payments tbody tr") == 2)
                #expect(try await browser.text("#order-payments").contains("Mo Manager"))
                #expect(try await browser.count("#refund-form") == 0, "nothing is owed any more")
            }
            #expect(
                try await sql("SELECT payment_status, refund_due_amount FROM orders WHERE id = $1", [id], on: app.database)[0]
                    == ["refunded", "0"])
            #expect(try await sql("SELECT note FROM refunds WHERE order_id = $1", [id], on: app.database) == [["Cash from the till"]])
        }
    }

    @Test("pay back the short-picked line by itself, then two lines of the cancelled order", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func refundByLine(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let (order, ackee, _, _) = try await LineRefundTests().shortPicked(app, store: store, staff: staff)

            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders/\(order)")
                try await browser.waitFor("#refund-lines-form")
                #expect(try await browser.count("#refund-lines-form input[type=checkbox]") == 1, "only the short line owes")
                #expect(try await browser.text("#refund-lines-form").contains("Ackee: JMD 10.00"))
                try await ShopBrowserTests.checkPage(browser, "console-order-refund-lines", width: width)
                try await browser.click("#refund-line-1")
                try await browser.click("#record-line-refund")
                try await browser.waitFor("#order-note")
                #expect(try await browser.text("#order-note").contains("JMD 10.00 paid back"))
                #expect(try await browser.text("#line-1").contains("JMD 10.00"), "the Ackee line's paid back")
                #expect(try await browser.count("#refund-form") == 0, "nothing is owed any more")

                #expect(try await app.transition(order, to: "cancelled", by: staff).status == .ok)
                try await browser.open(app.baseURL + "/console/orders/\(order)")
                try await browser.waitFor("#refund-lines-form")
                #expect(try await browser.count("#refund-lines-form input[type=checkbox]") == 3)
                #expect(try await browser.text("#refund-due").contains("JMD 18.00"))
                try await browser.click("#refund-line-2")
                try await browser.click("#refund-line-3")
                try await browser.click("#record-line-refund")
                try await browser.waitFor("#order-note")
                #expect(try await browser.text("#order-note").contains("JMD 8.00 paid back"))
                #expect(try await browser.text("#refund-due").contains("JMD 10.00"), "the Ackee's other unit is still owed")
                // Nothing ticked: a sentence, nothing written.
                try await browser.click("#record-line-refund")
                try await browser.waitFor("#order-note")
                #expect(try await browser.text("#order-note").contains("Tick the lines you paid back."))
            }
            let perLine = try await sql(
                "SELECT product_id, sum(amount) FROM refund_lines WHERE order_id = $1 GROUP BY 1 ORDER BY 2 DESC", [order], on: app.database)
            #expect(perLine.count == 3)
            #expect(perLine.first == [ackee, "1000"], "the short Ackee line gave back its one unit")
            #expect(try await sql("SELECT count(*), sum(amount) FROM refunds WHERE order_id = $1", [order], on: app.database)[0] == ["2", "1800"])
            #expect(try await sql("SELECT refund_due_amount FROM orders WHERE id = $1", [order], on: app.database)[0][0] == "1000")
        }
    }
}
