import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The stock page in a browser", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct StockBrowserTests {
    @Test(
        "a manager sees the reorder report, moves a product, sets its stock and minimum age, adds staff; staff get no stock page",
        .timeLimit(.minutes(3)))
    func stock() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store, name: "Morgan Manager")
            let staff = try await app.storeAccount(.staff, store: store)
            _ = try await app.createAisle(store: store, code: "A7", name: "Drinks", walkOrder: 7)
            let rum = try await app.createProduct(store: store, name: "Overproof rum", onHand: 2)
            try await sql("UPDATE stock SET min_supply = 5 WHERE product_id = $1", [rum], on: app.database)
            let sku = try await sql("SELECT sku FROM products WHERE id = $1", [rum], on: app.database)[0][0]!

            try await withBrowser { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.waitFor("#stock")
                #expect(try await browser.text("#product-\(sku)").contains("Overproof rum"))
                try await browser.snapshot("stock")

                let row = "#product-\(sku)"
                try await browser.clear("\(row) input[name=aisleCode]")
                try await browser.type("A7", into: "\(row) input[name=aisleCode]")
                try await browser.type("4", into: "\(row) input[name=bay]")
                try await browser.type("C\n", into: "\(row) input[name=shelf]")
                try await browser.waitFor("#stock-note")
                #expect(try await browser.text("#stock-note") == "Moved to aisle A7.")

                try await browser.clear("\(row) input[name=onHand]")
                try await browser.type("24\n", into: "\(row) input[name=onHand]")
                try await browser.waitFor("the new level") { try await browser.text("#stock-note") == "Stock set: 24 on hand, minimum 5." }

                try await browser.type("Overproof", into: "#q")
                try await browser.type("\n", into: "#q")
                try await browser.waitFor(row)
                try await browser.type("18\n", into: "\(row) input[name=minimumAge]")
                try await browser.waitFor("the minimum age") { try await browser.text("#stock-note") == "Now for customers aged 18 or over." }

                // Staff are added on the People page now (issue 46: PeopleBrowserTests).
                try await browser.click("a[href='/console/people']")
                try await browser.waitFor("#add-person")
                try await browser.type("Sam Shelf", into: "#person-name")
                try await browser.type("sam.shelf@example.com", into: "#person-email")
                try await browser.type("a long enough password\n", into: "#person-password")
                try await browser.waitFor("the new staff member") {
                    try await browser.text("#people-note").hasPrefix("Sam Shelf can now sign in as staff")
                }

                try await browser.click("#sign-out")
                try await browser.waitFor("#sign-in")
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.waitFor(".notice-refused")
                #expect(try await browser.text("h1") == "Not for you")
            }
            let row = try await sql(
                "SELECT s.on_hand, s.bay, s.shelf, a.code, minimum_age_at(s.store_id, s.product_id) FROM stock s JOIN aisles a ON a.id = s.aisle_id WHERE s.product_id = $1",
                [rum], on: app.database)
            #expect(row.first == ["24", "4", "C", "A7", "18"])
            #expect(
                try await sql("SELECT role, store_id FROM users WHERE email = 'sam.shelf@example.com'", on: app.database).first == ["staff", store])
        }
    }
}
