import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium: the catalogue run from the console, nobody needing `curl`. The chain's
/// admin adds a product (a mistyped barcode is refused with what was typed kept), renames and
/// reprices it, sets a minimum age, words and orders its images, discontinues it only after
/// saying so and brings it back; and describes a category with a picture. A store's manager
/// charges their own price and moves the product in their store. At 360 px and at 1280 px.
@Suite(
    "Products: the catalogue in the console, in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct ProductsBrowserTests {
    @Test("the admin adds, edits, words images, discontinues and brings back a product", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func admin(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            _ = try await app.createProduct(store: store, name: "Blue Mountain Coffee")
            let (admin, adminUser) = try await app.adminAccount()
            let sku = "ACKEE-\(width)"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(adminUser, at: app.baseURL)
                try await browser.click("a[href='/console/products']")
                try await browser.waitFor("#products")
                #expect(try await browser.text("#products").contains("Blue Mountain Coffee"))
                try await ShopBrowserTests.checkPage(browser, "console-products-admin", width: width)

                // A new product; the barcode's check digit is wrong.
                try await browser.click("#new-product")
                try await browser.waitFor("#product-form")
                try await browser.type("Ackee in brine", into: "#product-name")
                try await browser.type("Grace", into: "#product-brand")
                try await browser.type(sku, into: "#product-sku")
                try await browser.type("0012345678906", into: "#product-barcode")
                try await browser.type("Tins", into: "#product-category-field")
                try await browser.type("450.00", into: "#product-price")
                try await browser.click("#save-product")
                try await browser.waitFor("#product-note")
                #expect(try await browser.text("#product-note").lowercased().contains("check digit"))
                #expect(try await browser.attribute("#product-name", "value") == "Ackee in brine", "what was typed is kept")
                try await browser.clear("#product-barcode")
                try await browser.type("0012345678905", into: "#product-barcode")
                try await browser.click("#save-product")
                try await browser.waitFor("#product-state")
                #expect(try await browser.text("#product-note") == "Ackee in brine was added to the catalogue.")
                let product = try await sql("SELECT id FROM products WHERE sku = $1", [sku], on: app.database)[0][0]!
                try await ShopBrowserTests.checkPage(browser, "console-product-admin", width: width)

                // Renamed and repriced; a price with three decimals is refused.
                try await browser.clear("#product-price")
                try await browser.type("460.005", into: "#product-price")
                try await browser.click("#save-product")
                try await browser.waitFor("#product-note.notice-refused")
                #expect(try await browser.text("#product-note").contains("12.50"))
                try await browser.clear("#product-price")
                try await browser.type("460", into: "#product-price")
                try await browser.clear("#product-name")
                try await browser.type("Ackee in brine, 540 g", into: "#product-name")
                try await browser.type("540 g", into: "#product-size")
                try await browser.click("#save-product")
                try await browser.waitFor("the save") { try await browser.text("#product-note").hasPrefix("Saved") }
                #expect(try await browser.text("#product-note") == "Saved Ackee in brine, 540 g at JMD 460.00.")
                #expect(try await browser.attribute("#product-size", "value") == "540 g", "the pack size is kept")
                #expect(try await sql("SELECT size FROM products WHERE sku = $1", [sku], on: app.database)[0][0] == "540 g")

                try await browser.type("18", into: "#chain-minimum-age")
                try await browser.click("#save-minimum-age")
                try await browser.waitFor("the age") { try await browser.text("#product-note").contains("aged 18 or over") }

                // Two images put there through the API: reworded and reordered here.
                for position in 0...1 {
                    let placed = try await app.upload(
                        "/v1/products/\(product)/images/\(position)?altText=tin\(position)", bytes: tinyPNG + [UInt8(position + 1)],
                        contentType: "image/png", token: admin.token)
                    #expect(placed.status == .ok)
                }
                try await browser.open(app.baseURL + "/console/products/\(product)")
                try await browser.waitFor("#gallery")
                #expect(try await browser.count("#gallery li") == 2)
                try await browser.clear("#alt-1")
                try await browser.type("The tin, back, with the nutrition panel", into: "#alt-1")
                _ = try await browser.script("document.querySelector('#position-1').value = '0'")
                try await browser.click("#save-image-1")
                try await browser.waitFor("#product-note")
                #expect(try await browser.attribute("#alt-0", "value") == "The tin, back, with the nutrition panel", "moved first")
                try await browser.click("#remove-image-1")
                try await browser.waitFor("the removal") { try await browser.count("#gallery li") == 1 }

                // A third picture from the page itself (a file, multipart); a text file is refused.
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("products-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let notAnImage = folder.appendingPathComponent("notes.txt")
                try Data("not a picture".utf8).write(to: notAnImage)
                try await browser.type(notAnImage.path, into: "#image-file")
                try await browser.click("#upload-image-button")
                try await browser.waitFor("#product-note.notice-refused")
                #expect(try await browser.count("#gallery li") == 1)
                let picture = folder.appendingPathComponent("ackee.png")
                try Data(tinyPNG + [9]).write(to: picture)
                try await browser.type(picture.path, into: "#image-file")
                try await browser.type("Ackee, opened, in a bowl", into: "#image-alt")
                try await browser.click("#upload-image-button")
                try await browser.waitFor("the upload") { try await browser.count("#gallery li") == 2 }
                #expect(try await browser.text("#product-note") == "The image was added, 2nd of the product's images.")
                #expect(try await browser.attribute("#alt-1", "value") == "Ackee, opened, in a bowl")
                try await browser.click("#remove-image-1")
                try await browser.waitFor("the second removal") { try await browser.count("#gallery li") == 1 }

                // Discontinuing asks first; then search leaves it out until it is brought back.
                try await browser.click("#discontinue-product")
                try await browser.waitFor("#product-note.notice-refused")
                #expect(try await browser.text("#product-state") == "On sale")
                try await browser.click("#confirm-discontinue")
                try await browser.click("#discontinue-product")
                try await browser.waitFor("#restore-product")
                #expect(try await browser.text("#product-state").hasPrefix("Discontinued"))
                try await browser.open(app.baseURL + "/console/products?q=ackee&show=discontinued")
                try await browser.waitFor("#products")
                #expect(try await browser.count("#product-\(product)") == 1)
                try await browser.open(app.baseURL + "/console/products?q=ackee")
                try await browser.waitFor("#no-products")
                try await browser.open(app.baseURL + "/console/products/\(product)")
                try await browser.click("#restore-product")
                try await browser.waitFor("#discontinue-product")
            }
            let stored = try await sql(
                "SELECT name, brand, barcode, category, price_amount::text, minimum_age::text, discontinued::text FROM products WHERE sku = $1",
                [sku], on: app.database)
            #expect(stored == [["Ackee in brine, 540 g", "Grace", "0012345678905", "Tins", "46000", "18", "false"]])
            let images = try await app.request(
                .get, "/v1/products/\(try await sql("SELECT id FROM products WHERE sku = $1", [sku], on: app.database)[0][0]!)")
            #expect(images.json["images"].array.map { $0["altText"].string ?? "" } == ["The tin, back, with the nutrition panel"])
        }
    }

    @Test(
        "a manager charges their own price and moves the product; another store's manager is not the admin", .timeLimit(.minutes(4)),
        arguments: [360, 1280])
    func manager(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let aisle = try await app.createAisle(store: store, code: "7", name: "Tins", walkOrder: 7)
            _ = try await app.createAisle(store: store, code: "9", name: "Drinks", walkOrder: 9)
            let product = try await app.createProduct(store: store, name: "Callaloo, tinned", price: 30000, aisle: aisle)
            let manager = try await app.storeAccount(.manager, store: store)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.click("a[href='/console/products']")
                try await browser.waitFor("#product-\(product)")
                #expect(try await browser.count("#new-product") == 0, "the chain's admin adds products")
                try await ShopBrowserTests.checkPage(browser, "console-products-manager", width: width)
                try await browser.click("#product-\(product) a")
                try await browser.waitFor("#store-price-form")
                #expect(try await browser.text("#price-rule").contains("the chain's price, JMD 300.00"))
                #expect(try await browser.count("#product-form") == 0)
                try await ShopBrowserTests.checkPage(browser, "console-product-manager", width: width)

                try await browser.type("2,80", into: "#store-price")
                try await browser.click("#save-store-price")
                try await browser.waitFor("#product-note.notice-refused")
                #expect(try await browser.attribute("#store-price", "value") == "2,80", "what was typed is kept")
                try await browser.clear("#store-price")
                try await browser.type("280", into: "#store-price")
                try await browser.click("#save-store-price")
                try await browser.waitFor("the price") { try await browser.text("#product-note") == "This store now charges JMD 280.00." }
                #expect(try await browser.text("#price-rule").contains("its own price, JMD 280.00"))

                _ = try await browser.script("document.querySelector('#place-aisle').value = '9'")
                try await browser.clear("#place-bay")
                try await browser.type("99999", into: "#place-bay")
                try await browser.click("#save-place")
                try await browser.waitFor("#product-note.notice-refused")
                #expect(try await browser.text("#product-note").contains("bay"))
                // The page drawn again shows where the product still is.
                #expect(try await browser.script("return document.querySelector('#place-aisle').value") as? String == "7")
                _ = try await browser.script("document.querySelector('#place-aisle').value = '9'")
                try await browser.clear("#place-bay")
                try await browser.type("4", into: "#place-bay")
                try await browser.click("#save-place")
                try await browser.waitFor("the move") { try await browser.text("#product-note") == "Moved to aisle 9." }

                try await browser.click("#use-chain-price")
                try await browser.waitFor("the chain's price") {
                    try await browser.text("#product-note").hasPrefix("This store charges the chain's price again")
                }
            }
            #expect(
                try await sql(
                    "SELECT a.code, s.bay::text FROM stock s JOIN aisles a ON a.id = s.aisle_id WHERE s.store_id = $1 AND s.product_id = $2",
                    [store, product], on: app.database) == [["9", "4"]])
            #expect(try await sql("SELECT count(*)::text FROM store_prices WHERE store_id = $1", [store], on: app.database) == [["0"]])

            // The chain's editor is the admin's: a manager posting to it is refused, nothing changed.
            let cookie = try await app.consoleCookie(manager)
            let refused = try await app.form(
                .post, "/console/products/\(product)",
                [
                    "name": "Renamed", "sku": "X", "price": "1", "currency": "JMD",
                    ConsoleSession.csrfField: try await app.csrfToken(on: "/console/stock", cookie: cookie),
                ],
                cookie: cookie)
            #expect(refused.status == .forbidden)
            #expect(try await sql("SELECT name FROM products WHERE id = $1", [product], on: app.database) == [["Callaloo, tinned"]])
            // Another store's manager sees their own range, not this store's product.
            let other = try await app.storeAccount(.manager, store: try await app.createStore())
            let otherCookie = try await app.consoleCookie(other)
            #expect(try await app.form(.get, "/console/products", cookie: otherCookie).text.contains("Callaloo") == false)
        }
    }

    @Test("the admin describes a category and gives it a picture; the shop's list says so", .timeLimit(.minutes(3)))
    func category() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.createProduct(store: store, name: "Scotch bonnet sauce")
            _ = try await sql("UPDATE products SET category = 'Sauces' WHERE id = $1", [product], on: app.database)
            let (admin, adminUser) = try await app.adminAccount()
            #expect(
                try await app.upload("/v1/products/\(product)/images/0", bytes: tinyPNG, contentType: "image/png", token: admin.token).status == .ok)
            try await withBrowser(width: 360, height: 900, mobile: true) { browser in
                try await browser.signIn(adminUser, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/categories")
                try await browser.waitFor("#categories")
                try await ShopBrowserTests.checkPage(browser, "console-categories", width: 360)
                try await browser.click("#categories a")
                try await browser.waitFor("#category-form")
                try await browser.type("Hot, sweeter, smoky: Jamaica's sauces.", into: "#category-description")
                _ = try await browser.script("document.querySelector('#category-image').value = arguments[0]", [product])
                try await browser.click("#save-category")
                try await browser.waitFor("#category-picture")
                #expect(try await browser.text("#category-note") == "Saved what the shop says about Sauces.")
                try await ShopBrowserTests.checkPage(browser, "console-category", width: 360)
            }
            let listed = try await app.request(.get, "/v1/categories").json["items"].array.first { $0["name"].string == "Sauces" }
            #expect(listed?["description"].string == "Hot, sweeter, smoky: Jamaica's sauces.")
            #expect(listed?["imageUrl"].string?.contains(product) == true)
        }
    }
}
