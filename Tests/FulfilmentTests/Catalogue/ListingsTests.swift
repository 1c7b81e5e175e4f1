import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Listings: categories with their counts, and the best price of a scanned barcode")
struct ListingsTests {
    @Test("categories come by name with their counts, over the whole catalogue or what one store carries")
    func categoriesPerStore() async throws {
        try await withApp { app in
            let kingston = try await app.catalogueStore(code: "CAT-KGN")
            let mobay = try await app.catalogueStore(code: "CAT-MBJ")
            try await app.addProduct("Whole milk", category: "Dairy", at: kingston)
            try await app.addProduct("Cheddar", category: "Dairy", at: kingston, onHand: 0)
            try await app.addProduct("Yoghurt", category: "Dairy", at: mobay)
            try await app.addProduct("Corned beef", category: "canned goods", at: kingston)
            try await app.addProduct("Ackee", category: "Canned goods", at: mobay)
            try await app.addProduct("Bread", category: "Bakery")
            let dropped = try await app.addProduct("Old cola", category: "Drinks", at: kingston)
            try await sql("UPDATE products SET discontinued = true WHERE id = $1", [dropped], on: app.database)
            try await app.addProduct("Mystery box", category: "", at: kingston)

            let all = try await app.request(.get, "/v1/categories")
            #expect(all.status == .ok)
            #expect(counts(all) == [["Bakery": 1], ["Canned goods": 1], ["canned goods": 1], ["Dairy": 3]])
            #expect(all.text.contains(#""nextCursor":null"#))

            // Out of stock still counts: the store carries it (it has a stock row), as search lists it.
            let atKingston = try await app.request(.get, "/v1/categories?storeId=\(kingston.id)")
            #expect(counts(atKingston) == [["canned goods": 1], ["Dairy": 2]])
            let atMobay = try await app.request(.get, "/v1/categories?storeId=\(mobay.id)")
            #expect(counts(atMobay) == [["Canned goods": 1], ["Dairy": 1]])
            // The counts agree with what the listing of one category at that store holds.
            #expect(try await app.names("/v1/products?storeId=\(kingston.id)&category=Dairy").count == 2)

            let unknown = try await app.request(.get, "/v1/categories?storeId=\(UUID())")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "not_found")
            let malformed = try await app.request(.get, "/v1/categories?storeId=kingston")
            #expect(malformed.status == .notFound)
            let empty = try await app.request(.get, "/v1/categories?storeId=\(try await app.createStore(code: "CAT-NEW"))")
            #expect(empty.status == .ok)
            #expect(empty.json["items"].array.isEmpty)
        }
    }

    @Test("the counts the database keeps (migration 050) agree with counting, after products and stock change every way they can")
    func keptCountsAgree() async throws {
        try await withApp { app in
            let kingston = try await app.catalogueStore(code: "CNT-KGN")
            let mobay = try await app.catalogueStore(code: "CNT-MBJ")
            let milk = try await app.addProduct("Milk", category: "Dairy", at: kingston)
            let cheese = try await app.addProduct("Cheese", category: "Dairy", at: mobay)
            let rum = try await app.addProduct("Rum", category: "Drinks", at: kingston)
            let box = try await app.addProduct("Box", category: "", at: kingston)
            // Every way what counts changes: stock at another store, a new category, none, a
            // discontinued product and one restored, a product no longer carried, two products
            // added in one statement, and changes that count nothing (a price, a rating).
            for statement in [
                "INSERT INTO stock (store_id, product_id, on_hand, reserved, min_supply) SELECT id, '\(milk)', 3, 0, 1 FROM stores WHERE code = 'CNT-MBJ'",
                "UPDATE products SET category = 'Cheese & dairy' WHERE id = '\(cheese)'",
                "UPDATE products SET category = '' WHERE id = '\(rum)'",
                "UPDATE products SET category = 'Household' WHERE id = '\(box)'",
                "UPDATE products SET discontinued = true WHERE id = '\(milk)'",
                "UPDATE products SET discontinued = false WHERE id = '\(milk)'",
                "UPDATE products SET discontinued = true WHERE id = '\(box)'",
                "DELETE FROM stock WHERE product_id = '\(cheese)'",
                """
                INSERT INTO products (sku, name, category, price_amount, currency)
                VALUES ('CNT-1', 'Butter', 'Dairy', 100, 'JMD'), ('CNT-2', 'Soap', 'Household', 100, 'JMD')
                """,
                "UPDATE products SET price_amount = 5, rating_count = 1, rating_sum = 5 WHERE sku = 'CNT-1'",
            ] {
                try await sql(statement, on: app.database)
            }
            let recount = """
                SELECT NULL::uuid AS store_id, p.category, count(*) FROM products p WHERE NOT p.discontinued AND p.category <> '' GROUP BY p.category
                UNION ALL
                SELECT s.store_id, p.category, count(*) FROM stock s JOIN products p ON p.id = s.product_id
                 WHERE NOT p.discontinued AND p.category <> '' GROUP BY s.store_id, p.category
                """
            let kept = "SELECT store_id, category, product_count FROM category_counts WHERE product_count > 0"
            let apart = try await sql(
                "SELECT (SELECT count(*) FROM (\(kept) EXCEPT ALL (\(recount))) a) + (SELECT count(*) FROM ((\(recount)) EXCEPT ALL \(kept)) b)",
                on: app.database)
            #expect(apart == [["0"]])
            #expect(counts(try await app.request(.get, "/v1/categories")) == [["Cheese & dairy": 1], ["Dairy": 2], ["Household": 1]])
            #expect(counts(try await app.request(.get, "/v1/categories?storeId=\(kingston.id)")) == [["Dairy": 1]])
            #expect(counts(try await app.request(.get, "/v1/categories?storeId=\(mobay.id)")) == [["Dairy": 1]])
        }
    }

    @Test("best price: cheapest first, then nearest, then by code; a store not carrying it is absent; a sold-out one unavailable")
    func bestPriceOrdering() async throws {
        try await withApp { app in
            // Four stores carry the corned beef; a fifth does not. Kingston and Spanish Town sell it
            // at 450.00, Downtown (no location) too; Montego Bay at the catalogue's 500.00, its last
            // tins all held by open orders.
            let kingston = try await app.catalogueStore(code: "BP-KGN")
            let spanishTown = try await app.catalogueStore(code: "BP-SPT")
            let montegoBay = try await app.catalogueStore(code: "BP-MBJ")
            let downtown = try await app.catalogueStore(code: "BP-DTN")
            let ochoRios = try await app.catalogueStore(code: "BP-OCH")
            let barcode = "4006381333931"
            let product = try await app.addProduct("Corned beef 340g", barcode: barcode, price: 50000, at: kingston, onHand: 5)
            for (store, onHand, reserved) in [(spanishTown, 3, 1), (montegoBay, 2, 2), (downtown, 9, 0)] {
                try await sql(
                    "INSERT INTO stock (store_id, product_id, on_hand, reserved) VALUES ($1, $2, $3::int, $4::int)",
                    [store.id, product, String(onHand), String(reserved)], on: app.database)
            }
            try await app.addProduct("Something else", at: ochoRios)
            for store in [kingston, spanishTown, downtown] {
                try await sql(
                    "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, $2, 45000)", [store.id, product], on: app.database)
            }
            for (store, lat, lng) in [(kingston, "18.0179", "-76.8099"), (spanishTown, "17.9911", "-76.9574"), (montegoBay, "18.4762", "-77.8939")] {
                try await sql("UPDATE stores SET latitude = $2, longitude = $3 WHERE id = $1", [store.id, lat, lng], on: app.database)
            }

            // Without `near`: by price, then store code.
            let plain = try await app.request(.get, "/v1/products/barcode/\(barcode)/prices")
            #expect(plain.status == .ok, "\(plain.text)")
            #expect(plain.json["items"].array.map { $0["storeCode"].string } == ["BP-DTN", "BP-KGN", "BP-SPT", "BP-MBJ"])
            #expect(plain.json["items"].array.allSatisfy { !$0.has("distanceMetres") })
            #expect(plain.text.contains(#""nextCursor":null"#))

            // Near Kingston: of the three at 450.00, Kingston (here), then Spanish Town (about 16 km),
            // then Downtown (no location); Montego Bay, dearer, last however near.
            let nearKingston = try await app.request(.get, "/v1/products/barcode/\(barcode)/prices?near=18.0179,-76.8099")
            let items = nearKingston.json["items"].array
            #expect(items.map { $0["storeCode"].string } == ["BP-KGN", "BP-SPT", "BP-DTN", "BP-MBJ"])
            #expect(items[0]["distanceMetres"].int == 0)
            #expect((15_500...16_300).contains(items[1]["distanceMetres"].int ?? 0), "\(items[1])")
            #expect(!items[2].has("distanceMetres"))
            #expect((120_000...130_000).contains(items[3]["distanceMetres"].int ?? 0), "\(items[3])")
            let nearSpanishTown = try await app.request(.get, "/v1/products/barcode/\(barcode)/prices?near=17.99,-76.96")
            #expect(nearSpanishTown.json["items"].array.map { $0["storeCode"].string } == ["BP-SPT", "BP-KGN", "BP-DTN", "BP-MBJ"])

            // Prices and availability are what the product route says at each store.
            #expect(items[0]["price"] == ["amount": 45000, "currency": "JMD"])
            #expect(items[3]["price"]["amount"].int == 50000)
            for item in items {
                let store = try #require(item["storeId"].string)
                let one = try await app.request(.get, "/v1/products/barcode/\(barcode)?storeId=\(store)")
                #expect(one.json["price"] == item["price"], "\(item)")
                #expect(one.json["availability"]["available"] == item["available"], "\(item)")
                #expect(one.json["availability"]["inStock"] == item["inStock"], "\(item)")
            }
            #expect(items[1]["available"].int == 2)
            #expect(items[3]["available"].int == 0)
            #expect(items[3]["inStock"].bool == false)
            #expect(items[0]["inStock"].bool == true)
            // Ocho Rios does not carry it: not listed at all.
            #expect(!plain.text.contains(ochoRios.id))
            #expect(items[0]["storeName"].string == "Store BP-KGN")
        }
    }

    @Test("best price: a product no store carries lists none; bad barcodes and bad places are refused as the lookup refuses them")
    func bestPriceRefusals() async throws {
        try await withApp { app in
            try await app.addProduct("Ackee 540g", barcode: "5901234123457", price: 90000)
            let none = try await app.request(.get, "/v1/products/barcode/5901234123457/prices?near=18,-76.8")
            #expect(none.status == .ok)
            #expect(none.json["items"].array.isEmpty)

            let invalid = try await app.request(.get, "/v1/products/barcode/4006381333932/prices")
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.errorCode == "invalid_barcode")
            let unknown = try await app.request(.get, "/v1/products/barcode/4006381333931/prices")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "not_found")
            #expect(unknown.json["error"]["message"] == (try await app.request(.get, "/v1/products/barcode/4006381333931")).json["error"]["message"])

            for near in [
                "", "18.0", "18.0,", "abc,def", "91,0", "-90.5,0", "0,180.01", "0,-181", "nan,0", "inf,0", "1,2,3",
                String(repeating: "1", count: 80) + ",0", " 18.5,-77", "+5,0", "1e1,0", "00,0", "18.,0", ".5,0", "0x10,0",
            ] {
                let reply = try await app.request(.get, "/v1/products/barcode/5901234123457/prices?near=\(q(near))")
                #expect(reply.status == .unprocessableContent, "near=\(near): \(reply.text)")
                #expect(reply.errorCode == "invalid_field", "near=\(near)")
                #expect(reply.json["error"]["details"]["field"].string == "near", "near=\(near)")
            }
            for near in ["90,180", "-90.000,-180", "0,0", "-0.5,179.999999"] {
                let reply = try await app.request(.get, "/v1/products/barcode/5901234123457/prices?near=\(q(near))")
                #expect(reply.status == .ok, "near=\(near): \(reply.text)")
            }
        }
    }

    @Test("the demo has two branches to compare: categories at each, and best prices that differ by store")
    func demo() async throws {
        try await withApp { app in
            _ = try await app.loadDemo()
            let stores = try await app.request(.get, "/v1/stores").json["items"].array
            let kingston = try #require(stores.first { $0["code"].string == DemoCatalogue.storeCode })
            let montegoBay = try #require(stores.first { $0["code"].string == DemoCatalogue.secondStoreCode })
            #expect(kingston["location"]["lat"].degrees == DemoCatalogue.storeLocation.latitude)
            #expect(montegoBay.has("location"))

            // Rice is cheaper in Montego Bay; from Kingston, Montego Bay still comes first, about 125 km away.
            let rice = try #require(DemoCatalogue.products.first { $0.sku == "QC-0019" })
            let near = "\(DemoCatalogue.storeLocation.latitude),\(DemoCatalogue.storeLocation.longitude)"
            let prices = try await app.request(.get, "/v1/products/barcode/\(rice.barcode!)/prices?near=\(near)").json["items"].array
            #expect(prices.map { $0["storeCode"].string } == [DemoCatalogue.secondStoreCode, DemoCatalogue.storeCode])
            #expect(prices.map { $0["price"]["amount"].int } == [79_500, rice.price])
            #expect(prices[1]["distanceMetres"].int == 0)
            #expect((110_000...140_000).contains(prices[0]["distanceMetres"].int ?? 0), "\(prices[0])")
            // The line sold out in Kingston is in at Montego Bay.
            let soldOut = try #require(DemoCatalogue.products.first { $0.sku == "QC-0043" })
            let offers = try await app.request(.get, "/v1/products/barcode/\(soldOut.barcode!)/prices").json["items"].array
            #expect(Set(offers.map { "\($0["storeCode"].string ?? "?") \($0["inStock"].bool ?? false)" }) == ["QC-KGN false", "QC-MBJ true"])

            // Montego Bay carries only the packaged lines, so its categories hold fewer products.
            let atKingston = try await app.request(.get, "/v1/categories?storeId=\(kingston["id"].string ?? "")")
            let atMontegoBay = try await app.request(.get, "/v1/categories?storeId=\(montegoBay["id"].string ?? "")")
            let total = { (reply: TestReply) in reply.json["items"].array.compactMap { $0["productCount"].int }.reduce(0, +) }
            #expect(total(atKingston) == DemoCatalogue.products.count)
            #expect(total(atMontegoBay) == DemoCatalogue.products.filter { $0.barcode != nil }.count)
            #expect(atKingston.json["items"].array.contains { $0["name"].string == "Produce" })
        }
    }

    /// A category listing as `[name: count]` pairs, in order.
    private func counts(_ reply: TestReply) -> [[String: Int]] {
        reply.json["items"].array.map { [$0["name"].string ?? "?": $0["productCount"].int ?? -1] }
    }
}
