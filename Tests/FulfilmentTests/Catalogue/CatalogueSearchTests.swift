import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Catalogue: a customer searches the catalogue without signing in")
struct CatalogueSearchTests {
    @Test("a typo still finds the product: 'mozarela' finds Mozzarella, first")
    func typoSearch() async throws {
        try await withApp { app in
            try await app.addProduct("Mozzarella Cheese 200g", brand: "Galbani")
            try await app.addProduct("Cheddar Cheese 400g", brand: "Anchor")
            try await app.addProduct("Marinara Sauce", brand: "Ragu")
            let names = try await app.names("/v1/products?q=mozarela")
            #expect(names.first == "Mozzarella Cheese 200g")
            #expect(!names.contains("Cheddar Cheese 400g"))
        }
    }

    @Test("search ignores case, in the query and in the name")
    func caseInsensitive() async throws {
        try await withApp { app in
            try await app.addProduct("Mozzarella Cheese 200g", brand: "Galbani")
            for query in ["MOZZARELLA", "mOzZaReLlA", "mozzarella"] {
                #expect(try await app.names("/v1/products?q=\(q(query))") == ["Mozzarella Cheese 200g"], "\(query)")
            }
        }
    }

    @Test("searching a brand finds that brand's products, not others'")
    func brandSearch() async throws {
        try await withApp { app in
            try await app.addProduct("Ackee in Brine 540g", brand: "Grace")
            try await app.addProduct("Coconut Milk 400ml", brand: "Grace")
            try await app.addProduct("Soy Chunks 200g", brand: "Lasco")
            let grace = try await app.names("/v1/products?q=grace")
            #expect(Set(grace) == ["Ackee in Brine 540g", "Coconut Milk 400ml"])
            #expect(try await app.names("/v1/products?q=lasko") == ["Soy Chunks 200g"])
        }
    }

    @Test("at a store, each result shows available = on hand - reserved, and its place")
    func availability() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Condensed Milk", at: store, onHand: 12, reserved: 5, aisle: "4", bay: 2, shelf: "C")
            try await app.addProduct("Evaporated Milk", at: store, onHand: 3, reserved: 3)
            try await app.addProduct("Powdered Milk")  // not carried by this store
            let reply = try await app.request(.get, "/v1/products?q=milk&storeId=\(store.id)")
            #expect(reply.status == .ok)
            let items = reply.json["items"].array
            #expect(items.count == 2)
            let condensed = try #require(items.first { $0["name"].string == "Condensed Milk" })
            #expect(condensed["availability"]["available"].int == 7)
            #expect(condensed["availability"]["inStock"].bool == true)
            #expect(condensed["availability"]["location"]["aisleCode"].string == "4")
            #expect(condensed["availability"]["location"]["aisleName"].string == "Canned goods")
            let evaporated = try #require(items.first { $0["name"].string == "Evaporated Milk" })
            #expect(evaporated["availability"]["available"].int == 0)
            #expect(evaporated["availability"]["inStock"].bool == false)
            #expect(evaporated["availability"]["located"].bool == false)
            #expect(condensed["price"]["amount"].int == 10000)
            #expect(condensed["price"]["currency"].string == "JMD")
            // Without a store, the whole catalogue and no availability.
            let everywhere = try await app.request(.get, "/v1/products?q=milk")
            #expect(everywhere.json["items"].array.count == 3)
            #expect(everywhere.json["items"][0]["availability"] == .null)
        }
    }

    @Test("pages are stable: every product exactly once, for a search with ties and for the listing by name")
    func stablePagination() async throws {
        try await withApp { app in
            var all: Set<String> = []
            for i in 0..<23 { all.insert(try await app.addProduct("Rice \(i % 3)", brand: "Grace")) }
            let bleach = try await app.addProduct("Bleach", brand: "Clorox")
            for query in ["grace", ""] {
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let path = "/v1/products?q=\(query)&limit=5" + (cursor.map { "&cursor=\(q($0))" } ?? "")
                    let reply = try await app.request(.get, path)
                    #expect(reply.status == .ok, "\(reply.text)")
                    seen += reply.json["items"].array.compactMap { $0["id"].string }
                    cursor = reply.json["nextCursor"].string
                    pages += 1
                    if pages == 2 {
                        // A product added mid-way does not shift the pages already handed out.
                        try await app.addProduct("Aaa Rice", brand: "Grace")
                    }
                } while cursor != nil && pages < 20
                #expect(Set(seen).count == seen.count, "no product twice for q=\(query)")
                #expect(all.isSubset(of: Set(seen)), "every product once for q=\(query)")
                #expect(Set(seen).contains(bleach) == query.isEmpty)
            }
            let last = try await app.request(.get, "/v1/products?q=bleach")
            #expect(last.json["nextCursor"] == .null)
            #expect(last.text.contains(#""nextCursor":null"#), "nextCursor is written, as null")
        }
    }

    @Test("an empty q lists the catalogue by name, case-insensitively; category filters")
    func emptyQueryLists() async throws {
        try await withApp { app in
            try await app.addProduct("banana chips", category: "Snacks")
            try await app.addProduct("Apple Juice", category: "Beverages")
            try await app.addProduct("Cherry Cola", category: "Beverages")
            #expect(try await app.names("/v1/products") == ["Apple Juice", "banana chips", "Cherry Cola"])
            #expect(try await app.names("/v1/products?category=Beverages") == ["Apple Juice", "Cherry Cola"])
        }
    }

    @Test("a discontinued product leaves search but can still be looked up, flagged, and listed apart to bring it back")
    func discontinued() async throws {
        try await withApp { app in
            let id = try await app.addProduct("Bammy 2 pack")
            _ = try await app.addProduct("Bammy 4 pack")
            try await app.sqlDiscontinue(id)
            #expect(try await app.names("/v1/products?q=bammy") == ["Bammy 4 pack"])
            // Listed apart, by a part of the name (it has no search words), never mixed with those on sale.
            #expect(try await app.names("/v1/products?q=MY%202&discontinued=true") == ["Bammy 2 pack"])
            #expect(try await app.names("/v1/products?discontinued=true&q=bammy") == ["Bammy 2 pack"])
            let reply = try await app.request(.get, "/v1/products/\(id)")
            #expect(reply.status == .ok)
            #expect(reply.json["discontinued"].bool == true)
        }
    }

    @Test("bad parameters are 422 naming the field; unknown store or product 404")
    func badParameters() async throws {
        try await withApp { app in
            let badCursor = try await app.request(.get, "/v1/products?q=rice&cursor=not-a-cursor")
            #expect(badCursor.status == .unprocessableContent)
            #expect(badCursor.errorCode == "invalid_cursor")
            let badLimit = try await app.request(.get, "/v1/products?limit=1000")
            #expect(badLimit.status == .unprocessableContent)
            #expect(badLimit.json["error"]["details"]["field"].string == "limit")
            let unknownStore = try await app.request(.get, "/v1/products?storeId=\(UUID())")
            #expect(unknownStore.status == .notFound)
            #expect(try await app.request(.get, "/v1/products/\(UUID())").status == .notFound)
            #expect(try await app.request(.get, "/v1/products/not-a-uuid").status == .notFound)
        }
    }
}

@Suite("Catalogue: search at scale keeps its words in step with the catalogue (migration 016)")
struct CatalogueSearchWordsTests {
    @Test("two words, one misspelt, find the product having both, first; a prefix finds the word")
    func twoWords() async throws {
        try await withApp { app in
            try await app.addProduct("Peanut Butter 500g", brand: "Grace")
            try await app.addProduct("Salted Butter 250g", brand: "Anchor")
            try await app.addProduct("Peanut Punch 330ml", brand: "Nutrament")
            try await app.addProduct("Corned Beef 340g", brand: "Grace")
            try await app.addProduct("Spicy Sardines 120g", brand: "Grace")
            try await app.addProduct("Sardines in Oil 120g", brand: "Grace")
            #expect(try await app.names("/v1/products?q=peanut%20buter") == ["Peanut Butter 500g"])
            #expect(try await app.names("/v1/products?q=corned%20beef") == ["Corned Beef 340g"])
            #expect(try await app.names("/v1/products?q=spicy%20sardines") == ["Spicy Sardines 120g"])
            #expect(try await app.names("/v1/products?q=grace%20sardines").count == 2)
            #expect(try await app.names("/v1/products?q=mozz") == [])
            try await app.addProduct("Mozzarella 200g", brand: "Galbani")
            #expect(try await app.names("/v1/products?q=mozz") == ["Mozzarella 200g"])
        }
    }

    @Test("the word itself ranks above a typo's correction, and the likeliest correction above a far one")
    func ranking() async throws {
        try await withApp { app in
            try await app.addProduct("Mild Cheddar 400g", brand: "Anchor")
            try await app.addProduct("Fresh Milk 1L", brand: "Dairy Farmers")
            try await app.addProduct("Cheese Crackers", brand: "Excelsior")
            let milk = try await app.names("/v1/products?q=milk")
            #expect(milk.first == "Fresh Milk 1L")
            let chese = try await app.names("/v1/products?q=chese")
            #expect(chese.first == "Cheese Crackers", "\(chese)")
        }
    }

    @Test("a word with a digit (a size) matches exactly: 500g does not find 400g")
    func sizes() async throws {
        try await withApp { app in
            try await app.addProduct("Basmati Rice 500g", brand: "Lasco")
            try await app.addProduct("Basmati Rice 400g", brand: "Lasco")
            #expect(try await app.names("/v1/products?q=rice%20500g") == ["Basmati Rice 500g"])
            #expect(try await app.names("/v1/products?q=%21%21%21") == [])
        }
    }

    @Test("a renamed product is found by its new name, not its old one; discontinued and back again")
    func renamedAndDiscontinued() async throws {
        try await withApp { app in
            let id = try await app.addProduct("Bammy 2 pack", brand: "Island Grill")
            try await app.addProduct("Festival Mix", brand: "Island Grill")
            try await sql("UPDATE products SET name = 'Cassava Flatbread 2 pack' WHERE id = $1", [id], on: app.database)
            #expect(try await app.names("/v1/products?q=bammy") == [])
            #expect(try await app.names("/v1/products?q=casava") == ["Cassava Flatbread 2 pack"])
            // No product has "bammy" any more: it left the words searches are matched against.
            #expect(try await app.vocabulary(["bammy", "cassava", "grill"]) == ["cassava", "grill"])
            try await app.sqlDiscontinue(id)
            #expect(try await app.names("/v1/products?q=cassava") == [])
            #expect(try await app.vocabulary(["cassava", "grill"]) == ["grill"])
            try await sql("UPDATE products SET discontinued = false WHERE id = $1", [id], on: app.database)
            #expect(try await app.names("/v1/products?q=cassava") == ["Cassava Flatbread 2 pack"])
            #expect(try await app.names("/v1/products?q=island%20gril").count == 2)
        }
    }

    @Test("the service splits a query as the database splits names and brands")
    func sameWords() async throws {
        try await withApp { app in
            for text in ["Busha Browne's Jerk-Sauce", "café au lait 1.5L", "Dr. Oetker’s  x_y", "  spicy,,sardines  SPICY "] {
                let rows = try await sql("SELECT array_to_string(search_words($1, ''), ' ')", [text], on: app.database)
                let database = Set((rows[0][0] ?? "").split(separator: " ").map(String.init))
                #expect(Set(ProductQueries.searchWords(text)) == database, "\(text)")
            }
            #expect(ProductQueries.searchWords("a b c d e f g h i j") == ["a", "b", "c", "d", "e", "f", "g", "h"])
        }
    }
}

extension TestApp {
    /// Which of `words` searches match against (search_vocabulary), sorted.
    func vocabulary(_ words: [String]) async throws -> [String] {
        let rows = try await sql(
            "SELECT word FROM search_vocabulary WHERE word = ANY (string_to_array($1, ' ')) ORDER BY word", [words.joined(separator: " ")],
            on: database)
        return rows.compactMap { $0[0] }
    }

    func sqlDiscontinue(_ id: String) async throws {
        try await sql("UPDATE products SET discontinued = true WHERE id = $1", [id], on: database)
    }
}
