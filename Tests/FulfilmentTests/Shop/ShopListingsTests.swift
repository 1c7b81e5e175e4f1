import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// What a shopper browses before searching (issue 45): the front page's offers, new arrivals and
/// categories (with their words and pictures), the offers and new-in listings, and the store
/// finder with each store's hours this week, nearest first.
@Suite("The shop's front page, offers, new in, categories and the store finder")
struct ShopListingsTests {
    @Test("the front page shows offers with the saving, what is new and the categories; offers and new in list all of them, sortable")
    func frontPageAndListings() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let cookie = "\(ShopVisit.storeCookie)=\(store)"
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000)
            let ackee = try await app.addProduct(store: store, name: "Ackee", price: 30_000)
            let old = try await app.addProduct(store: store, name: "Old Stock Bun", price: 20_000)
            _ = try await sql("UPDATE products SET category = 'Rice & Grains' WHERE id = $1", [rice], on: app.database)
            _ = try await sql("UPDATE stock SET added_at = now() - interval '60 days' WHERE product_id = $1", [old], on: app.database)
            _ = try await sql(
                "INSERT INTO category_details (name, description) VALUES ('Rice & Grains', 'Long grain, brown & parboiled.')", on: app.database)
            for (product, price) in [(rice, 40_000), (ackee, 29_000)] {
                _ = try await sql(
                    """
                    INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                    VALUES ($1, $2, $3, now() - interval '1 hour', now() + interval '2 days')
                    """, [store, product, String(price)], on: app.database)
            }

            let home = try await app.form(.get, "/shop", cookie: cookie).text
            let offers = try #require(home.range(of: "id=\"home-offers\"")).upperBound
            let newIn = try #require(home.range(of: "id=\"home-new\"")).lowerBound
            let offersPart = String(home[offers..<newIn])
            #expect(offersPart.contains("Save JMD 50.00") && offersPart.contains("Save JMD 10.00"), "\(offersPart)")
            #expect(!offersPart.contains("Old Stock Bun"))
            let categories = try #require(home.range(of: "id=\"home-categories\"")).lowerBound
            let newPart = String(home[newIn..<categories])
            #expect(newPart.contains("Ackee") && !newPart.contains("Old Stock Bun"), "\(newPart)")
            #expect(home.contains("Long grain, brown &amp; parboiled."))
            #expect(
                home.contains("href=\"/shop?category=Rice%20%26%20Grains\"") || home.contains("href=\"/shop?category=Rice+%26+Grains\""), "\(home)")

            let cheapest = try await app.form(.get, "/shop/offers", cookie: cookie).text
            #expect(cheapest.range(of: "Ackee")!.lowerBound < cheapest.range(of: "Parboiled Rice")!.lowerBound)
            let byName = try await app.form(.get, "/shop/offers?sort=name", cookie: cookie).text
            #expect(byName.range(of: "Ackee")!.lowerBound < byName.range(of: "Parboiled Rice")!.lowerBound)
            #expect(byName.contains("<strong aria-current=\"true\">A to Z</strong>"))
            let typo = try await app.form(.get, "/shop/offers?sort=cheapest%27--", cookie: cookie)
            #expect(typo.status == .ok, "an unknown sort is the default one")
            let fresh = try await app.form(.get, "/shop/new", cookie: cookie).text
            #expect(fresh.contains("Ackee") && !fresh.contains("Old Stock Bun"))

            let category = try await app.form(.get, "/shop?category=Rice%20%26%20Grains", cookie: cookie).text
            #expect(category.contains("<p id=\"category-about\">Long grain, brown &amp; parboiled.</p>"))
            let everything = try await app.form(.get, "/shop?all=1", cookie: cookie).text
            #expect(everything.contains("Old Stock Bun") && everything.contains("Ackee"))
        }
    }

    @Test("the store finder: each store's hours this week on its clock, nearest first from a location, a town's stores first")
    func storeFinder() async throws {
        try await withApp { app in
            let (kingston, _) = try await app.storeWithCalendar(TestApp.everyDay("08:00", "20:00", zone: "America/Jamaica"))
            let mobay = try await app.createStore(name: "Montego Bay")
            _ = try await sql(
                "UPDATE stores SET name = 'Half Way Tree', address = '20 Constant Spring Rd, Kingston', latitude = 18.0120, longitude = -76.7970, phone = '+1 876 555 0100' WHERE id = $1",
                [kingston], on: app.database)
            _ = try await sql(
                "UPDATE stores SET address = 'Fairview, Montego Bay', latitude = 18.4762, longitude = -77.8939 WHERE id = $1", [mobay],
                on: app.database)

            let all = try await app.form(.get, "/shop/stores").text
            #expect(all.contains("<a href=\"tel:+18765550100\">+1 876 555 0100</a>"))
            #expect(all.contains("<caption>Opening hours this week</caption>") && all.contains("<td>08:00–20:00</td>"))
            #expect(all.components(separatedBy: "<tr><th scope=\"row\">").count == 8, "seven days")

            // From near Montego Bay: it comes first, with its distance.
            let near = try await app.form(.get, "/shop/stores?near=18.47,-77.92").text
            #expect(near.range(of: "id=\"store-\(mobay)\"")!.lowerBound < near.range(of: "id=\"store-\(kingston)\"")!.lowerBound)
            #expect(near.contains("km away") && near.contains("id=\"nearest-first\""))
            // A town typed: its stores first.
            let town = try await app.form(.get, "/shop/stores?town=kingston").text
            #expect(town.range(of: "id=\"store-\(kingston)\"")!.lowerBound < town.range(of: "id=\"store-\(mobay)\"")!.lowerBound)
            for hostile in ["near=91,0", "near=NaN,NaN", "near=1e999,0", "town=%00%27"] {
                let reply = try await app.form(.get, "/shop/stores?\(hostile)")
                #expect(reply.status == .ok, "\(hostile): \(reply.status)")
            }
        }
    }

    @Test("the demo a visitor first opens has pictures, categories with words, the README's search, and a store with its hours")
    func demoFirstOpened() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let cookie = "\(ShopVisit.storeCookie)=\(store)"
            let home = try await app.form(.get, "/shop", cookie: cookie).text
            #expect(home.components(separatedBy: "<img class=\"thumb\" src=\"/v1/products/").count > 6, "\(home)")
            #expect(home.contains("Fresh from Jamaican farms"))
            let picture = try #require(home.range(of: "src=\"/v1/products/")).upperBound
            let product = String(home[picture...].prefix(36))
            let image = try await app.request(.get, "/v1/products/\(product)/image")
            #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            #expect(Array(image.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let found = try await app.form(.get, "/shop?q=parbioled%20rice", cookie: cookie).text
            #expect(found.contains("Grace Parboiled Long Grain Rice 2kg"), "the README's example finds the rice")
            let stores = try await app.form(.get, "/shop/stores").text
            #expect(stores.contains("+1 876 555 0142") && stores.contains("Opening hours this week"))
            // The demo's news and recipes come with its accounts (`fulfilment seed --demo`: DemoContentTests).
        }
    }
}
