import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Pick lists in a browser", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct PickModeBrowserTests {
    /// A valid EAN-13 from its first twelve digits.
    static func ean13(_ twelve: String) -> String {
        let digits = twelve.compactMap { $0.wholeNumberValue }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return twelve + String((10 - sum % 10) % 10)
    }

    @Test(
        "create a list, print it to PDF, walk it on a 360 px handheld: a wrong barcode, an over-pick, a short line, complete", .timeLimit(.minutes(3))
    )
    func pickMode() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let picker = try await app.storeAccount(.staff, store: store, name: "Pat Picker")
            let customer = try await app.registerCustomer()
            let dry = try await app.createAisle(store: store, code: "A1", name: "Rice & grains", walkOrder: 1)
            let dairy = try await app.createAisle(store: store, code: "A2", name: "Dairy", walkOrder: 2)
            let riceCode = Self.ean13("501234500001")
            let milkCode = Self.ean13("501234500002")
            let rice = try await app.createProduct(
                store: store, name: "Long grain rice", barcode: riceCode, price: 400, aisle: dry, bay: 3, shelf: "B")
            let milk = try await app.createProduct(store: store, name: "Whole milk", barcode: milkCode, price: 250, aisle: dairy)
            let first = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(rice, 2), (milk, 1)])
            let second = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(rice, 1)])

            try await withBrowser(width: 360, height: 800, mobile: true) { browser in
                try await browser.signIn(picker, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/pick-lists")
                try await browser.waitFor("#create")
                try await browser.click("#create")
                try await browser.waitFor("#stop[data-stop='1']")
                let pickURL = try await browser.currentURL
                #expect(pickURL.hasSuffix("/pick"))

                // The A4 sheet, printed by the browser.
                try await browser.open(String(pickURL.dropLast("/pick".count)) + "/print")
                try await browser.waitFor("body")
                #expect(try await browser.text("body").contains("Long grain rice"))
                let pdf = try await browser.printPDF()
                #expect(pdf.starts(with: Array("%PDF-".utf8)))
                try TestOutput.save(pdf, as: "pick-sheet.pdf")

                try await browser.open(pickURL)
                try await browser.waitFor("#stop[data-stop='1']")
                // "Complete the list" at stop 1 asks first, and says how much is not picked.
                try await browser.click("#complete")
                try await browser.waitFor("#confirm-complete")
                #expect(try await browser.text("#confirm-complete-text").hasPrefix("2 stops of 2 not picked yet."))
                #expect(try await browser.text("#complete-anyway") == "Complete with 2 stops unpicked")
                try await browser.snapshot("pick-confirm-complete")
                try await browser.click("#keep-picking")
                try await browser.waitFor("#stop[data-stop='1']")
                #expect(try await browser.count("#confirm-complete") == 0)
                #expect(try await sql("SELECT completed_at IS NULL FROM pick_lists", on: app.database) == [["t"]], "nothing was completed")
                #expect(try await browser.text("#stop-name") == "Long grain rice")
                #expect(try await browser.text("#stop-where") == "Aisle A1 · bay 3 · shelf B")
                #expect(try await browser.script("return document.activeElement.id") as? String == "barcode")
                // A 360 px handheld: nothing sticks out sideways.
                #expect(try await browser.script("return window.innerWidth") as? Int == 360)
                #expect(try await browser.script("return document.documentElement.scrollWidth") as? Int ?? 999 <= 360)
                try await browser.snapshot("pick-mode")

                // The wrong product: the milk's barcode at the rice stop.
                try await browser.type(milkCode + "\n", into: "#barcode")
                try await browser.waitFor("#pick-note")
                #expect(try await browser.text("#pick-note").hasPrefix("WRONG PRODUCT"))
                try await browser.snapshot("pick-wrong-product")

                // Three for tote A, which ordered two.
                try await browser.clear("#quantity")
                try await browser.type("3", into: "#quantity")
                try await browser.type(riceCode + "\n", into: "#barcode")
                try await browser.waitFor("the over-pick") { try await browser.text("#pick-note").hasPrefix("OVER-PICK") }

                try await browser.type(riceCode + "\n", into: "#barcode")
                try await browser.waitFor("the pick for tote A") { try await browser.text("#pick-note") == "Picked 2 of 2." }
                try await browser.type(riceCode + "\n", into: "#barcode")
                try await browser.waitFor("#stop[data-stop='2']")
                #expect(try await browser.text("#stop-name") == "Whole milk")

                // No milk on the shelf: short, none found.
                try await browser.click("#short-A")
                try await browser.waitFor("the short line") { try await browser.text("#pick-note") == "Closed short: 0 of 1." }
                #expect(try await browser.text("#tote-A").contains("short (0 of 1)"))
                try await browser.snapshot("pick-short")

                try await browser.click("#complete")
                try await browser.waitFor("the completion") {
                    try await browser.text("#pick-note") == "Pick list complete: 2 order(s) packaged, 0 left pending."
                }
            }

            #expect(try await sql("SELECT status, total_amount FROM orders WHERE id = $1", [first], on: app.database)[0] == ["packaged", "800"])
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [second], on: app.database)[0][0] == "packaged")
            #expect(try await app.stock(store: store, product: milk) == (50, 0))
            #expect(try await app.stock(store: store, product: rice) == (50, 3))
        }
    }

    @Test("a list with stops still to pick is completed only when the picker confirms; then those orders stay pending", .timeLimit(.minutes(2)))
    func completeUnpickedOnlyWhenConfirmed() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let picker = try await app.storeAccount(.staff, store: store, name: "Pat Picker")
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: store, name: "Long grain rice", price: 400)
            let order = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(rice, 2)])
            let staff = try await app.signIn(role: .staff, store: store)
            let list = try #require(
                try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(order)]], token: staff.token)
                    .json["id"].string)
            let cookie = try await app.consoleCookie(picker)
            let path = "/console/pick-lists/\(list)"
            let csrf = try await app.csrfToken(on: "\(path)/pick", cookie: cookie)
            let asked = try await app.form(.post, "\(path)/complete", ["_csrf": csrf], cookie: cookie)
            #expect(asked.status == .ok && asked.text.contains("1 stop of 1 not picked yet."), "\(asked.text)")
            #expect(try await sql("SELECT completed_at IS NULL FROM pick_lists WHERE id = $1", [list], on: app.database) == [["t"]])
            let done = try await app.form(.post, "\(path)/complete", ["_csrf": csrf, "confirm": "yes"], cookie: cookie)
            #expect(done.status == .ok && done.text.contains("Pick list complete: 0 order(s) packaged, 1 left pending."), "\(done.text)")
            #expect(try await sql("SELECT completed_at IS NOT NULL FROM pick_lists WHERE id = $1", [list], on: app.database) == [["t"]])
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [order], on: app.database) == [["pending"]])
        }
    }
}
