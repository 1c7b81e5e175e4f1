import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The sales page in a browser", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct SalesBrowserTests {
    /// `datetime-local`'s value for `seconds` from now, in UTC (the page reads it as UTC).
    static func localValue(_ seconds: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: Date().addingTimeInterval(seconds))
    }

    @Test(
        "a manager finds Sales in the navigation, sees running and ended sales with both prices, puts a product on sale, is refused an overlap, ends it; staff see the lists alone",
        .timeLimit(.minutes(3)))
    func sales() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store, name: "Morgan Manager")
            let staff = try await app.storeAccount(.staff, store: store)
            let coffee = try await app.createProduct(store: store, name: "Blue Mountain Coffee", price: 250_000)
            let apple = try await app.createProduct(store: store, name: "Otaheite Apple", price: 40_000)
            try await sql(
                """
                INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                VALUES ($1, $2, 30000, now() - interval '1 day', now() + interval '6 days'),
                       ($1, $3, 200000, now() - interval '20 days', now() - interval '10 days')
                """, [store, apple, coffee], on: app.database)

            try await withBrowser { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.click("a[href='/console/sales']")
                try await browser.waitFor("#sales-running")
                let running = try await browser.text("#sales-running")
                #expect(running.contains("Otaheite Apple") && running.contains("JMD 300.00") && running.contains("JMD 400.00"), "\(running)")
                let ended = try await browser.text("#sales-ended")
                #expect(ended.contains("Blue Mountain Coffee") && ended.contains("JMD 2,000.00"), "\(ended)")

                _ = try await browser.script(
                    """
                    document.querySelector('#new-sale select').value = arguments[0];
                    document.querySelector('#new-sale input[name=startsAt]').value = arguments[1];
                    document.querySelector('#new-sale input[name=endsAt]').value = arguments[2];
                    """, [coffee, Self.localValue(-120), Self.localValue(3 * 86_400)])
                try await browser.type("1999.99\n", into: "#new-sale input[name=price]")
                try await browser.waitFor("the new sale") {
                    try await browser.text("#sale-note").contains("Blue Mountain Coffee is on sale at JMD 1,999.99")
                }
                #expect(try await browser.text("#sales-running").contains("JMD 1,999.99"))
                try await browser.snapshot("sales")

                _ = try await browser.script(
                    """
                    document.querySelector('#new-sale select').value = arguments[0];
                    document.querySelector('#new-sale input[name=startsAt]').value = arguments[1];
                    document.querySelector('#new-sale input[name=endsAt]').value = arguments[2];
                    """, [coffee, Self.localValue(86_400), Self.localValue(2 * 86_400)])
                try await browser.type("1500\n", into: "#new-sale input[name=price]")
                try await browser.waitFor("the refusal") { try await browser.text(".notice-refused").contains("overlaps") }

                let sale = try #require(
                    try await sql("SELECT id FROM store_sales WHERE product_id = $1 AND price_amount = 199999", [coffee], on: app.database).first?[0])
                try await browser.click("#sale-\(sale) button")
                try await browser.waitFor("the end") { try await browser.text("#sale-note") == "The sale of Blue Mountain Coffee ended." }
                #expect(try await browser.text("#sales-ended").contains("ended early"))

                try await browser.click("#sign-out")
                try await browser.waitFor("#sign-in")
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/sales")
                try await browser.waitFor("#sales-running")
                #expect(
                    try await browser.script(
                        "return document.querySelector('#new-sale') === null && document.querySelector('#sales-running button') === null;") as? Bool
                        == true)
            }
            let prices = try await sql(
                "SELECT price_amount, ended_by IS NOT NULL FROM store_sales WHERE product_id = $1 ORDER BY starts_at", [coffee], on: app.database)
            #expect(prices == [["200000", "f"], ["199999", "t"]])
        }
    }
}
