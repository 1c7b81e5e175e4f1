import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium: a manager uploads the store's stock count as a CSV file from the console,
/// sees what it will change before anything is written, fixes a refused row, imports it and reads
/// that it was written. At 360 px and at 1280 px, without script on the page.
@Suite(
    "Catalogue import in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct CatalogueImportBrowserTests {
    @Test(
        "a manager uploads a count, sees the refused row, uploads it fixed, imports it and reads the committed sentence", .timeLimit(.minutes(4)),
        arguments: [360, 1280])
    func managerImports(width: Int) async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let manager = try await app.storeAccount(.manager, store: store.id)
            try await app.addProduct("Mozzarella Cheese 200g", sku: "QC-1", at: store, onHand: 10)
            try await app.addProduct("Hard Dough Bread", sku: "QC-2", at: store, onHand: 5)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let wrong = directory.appendingPathComponent("count-wrong.csv")
            try Data("sku,on_hand,aisle,bay,shelf\nQC-1,12,6,3,B\nQC-2,-4,,,\n".utf8).write(to: wrong)
            let fixed = directory.appendingPathComponent("count.csv")
            try Data("sku,on_hand,aisle,bay,shelf\nQC-1,12,6,3,B\nQC-2,4,,,\n".utf8).write(to: fixed)

            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/catalogue/import")
                try await browser.waitFor("#import-form")
                try await ShopBrowserTests.checkPage(browser, "console-import-upload", width: width)

                try await browser.type(wrong.path, into: "#import-file")
                try await browser.click("#import-preview")
                try await browser.waitFor("#refused-rows")
                #expect(try await browser.text("#import-status").contains("1 row refused"))
                #expect(try await browser.text("#refused-rows").contains("On hand must be 0 or more"))
                #expect(try await browser.count("#import-start") == 0, "a file with a refused row cannot be imported")

                try await browser.click("#import-again")
                try await browser.waitFor("#import-form")
                try await browser.type(fixed.path, into: "#import-file")
                try await browser.click("#import-preview")
                try await browser.waitFor("#import-start")
                #expect(try await browser.text("#count-changed") == "2")
                #expect(try await browser.text("#changed-rows").contains("Mozzarella Cheese 200g"))
                #expect(try await browser.text("#changed-rows").contains("on hand, aisle, bay or shelf"))
                try await ShopBrowserTests.checkPage(browser, "console-import-preview", width: width)
                #expect(try await app.sqlOnHand(store: store.id, sku: "QC-1") == 10, "nothing is written by a preview")

                try await browser.click("#import-start")
                try await browser.waitFor("the committed sentence", attempts: 600) {
                    (try? await browser.text("#import-status"))?.hasPrefix("Imported 2 rows") == true
                }
                #expect(try await browser.text("#import-status") == "Imported 2 rows: 0 new, 2 changed, 0 unchanged.")
                #expect(try await browser.count("#import-cancel") == 0)
                try await ShopBrowserTests.checkPage(browser, "console-import-done", width: width)
            }
            #expect(try await app.sqlOnHand(store: store.id, sku: "QC-1") == 12)
            #expect(try await app.sqlOnHand(store: store.id, sku: "QC-2") == 4)
        }
    }
}

extension TestApp {
    /// The store's on hand of the product with `sku`.
    func sqlOnHand(store: String, sku: String) async throws -> Int? {
        let rows = try await sql(
            "SELECT s.on_hand FROM stock s JOIN products p ON p.id = s.product_id WHERE s.store_id = $1 AND p.sku = $2", [store, sku],
            on: database)
        guard let text = rows.first?[0] ?? nil else { return nil }
        return Int(text)
    }
}
