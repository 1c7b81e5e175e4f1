import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Search: typo tolerance that costs no precision (issue 45, sql/routines/search_word_matches.sql)")
struct SearchPrecisionTests {
    @Test("in the demo, a word finds the products having it, not those sharing a few letters")
    func demoShopperCases() async throws {
        try await withApp { app in
            let store = try await app.loadDemo().storeID.uuidString.lowercased()
            let rice = try await app.names("/v1/products?q=rice")
            #expect(rice.contains("Grace Parboiled Long Grain Rice 2kg"))
            for unrelated in ["Kremi Grape Nut Ice Cream 2L", "National Spice Bun 1.1kg", "Ripe Plantain", "Hormel Natural Choice Smoked Ham 198g"] {
                #expect(!rice.contains(unrelated), "rice: \(rice)")
            }
            let wine = try await app.names("/v1/products?q=wine")
            #expect(wine.allSatisfy { hasWord(beginning: "wine", in: $0) }, "wine: \(wine)")
            #expect(!wine.contains("Blue Band Margarine 500g"))
            let milk = try await app.request(.get, "/v1/stores/\(store)/locate?q=milk").json["items"].array.compactMap { $0["name"].string }
            #expect(milk.contains("Serge Island Whole Milk 1L"))
            #expect(milk.allSatisfy { hasWord(beginning: "milk", in: $0) }, "locate milk: \(milk)")
            #expect(!milk.contains("Counter Flour All-Purpose 2kg") && !milk.contains("Quick Cart Minced Beef 454g"))
            // Typos the rules allow still find the product, first.
            #expect(try await app.names("/v1/products?q=mozarela").first == "Galbani Mozzarella Block 227g")
            let chese = try await app.names("/v1/products?q=chese")
            #expect(Set(chese) == ["Holiday Cheese Trix 70g", "Tastee Processed Cheddar Cheese 500g"], "chese: \(chese)")
        }
    }

    @Test("'parbioled rice' finds the parboiled rice: two letters swapped are one typo")
    func swappedLetters() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Parboiled Rice 2kg", brand: "Grace", at: store)
            try await app.addProduct("Basmati Rice 1kg", brand: "Lasco", at: store)
            try await app.addProduct("Spice Bun", brand: "National", at: store)
            #expect(try await app.names("/v1/products?q=parbioled%20rice&storeId=\(store.id)") == ["Parboiled Rice 2kg"])
            #expect(try await app.names("/v1/products?q=rice&storeId=\(store.id)").sorted() == ["Basmati Rice 1kg", "Parboiled Rice 2kg"])
            // Under 9 letters one swap is the one typo allowed: "chedadr" is cheddar.
            try await app.addProduct("Mature Cheddar 250g", brand: "Anchor")
            #expect(try await app.names("/v1/products?q=chedadr") == ["Mature Cheddar 250g"])
        }
    }

    @Test("typos by length: none under 5 letters, one on 5 to 8, two on 9 or more")
    func typosByLength() async throws {
        try await withApp { app in
            try await app.addProduct("Whole Milk 1L", brand: "Serge Island")
            try await app.addProduct("Mature Cheddar 250g", brand: "Anchor")
            try await app.addProduct("Triple Action Toothpaste 100ml", brand: "Colgate")
            #expect(try await app.names("/v1/products?q=milk") == ["Whole Milk 1L"])
            #expect(try await app.names("/v1/products?q=mlik") == [], "4 letters: no typo")
            #expect(try await app.names("/v1/products?q=mik") == [], "3 letters: no typo")
            #expect(try await app.names("/v1/products?q=chedar") == ["Mature Cheddar 250g"], "6 letters: one typo")
            #expect(try await app.names("/v1/products?q=chdar") == [], "5 letters: two typos are too many")
            #expect(try await app.names("/v1/products?q=tothpaste") == ["Triple Action Toothpaste 100ml"], "9 letters: one typo")
            #expect(try await app.names("/v1/products?q=tothpasete") == ["Triple Action Toothpaste 100ml"], "9 letters: two typos")
            #expect(try await app.names("/v1/products?q=tuthpaxte") == [], "three typos are too many")
        }
    }

    @Test("the word itself first, then the words it begins, then typos; a word the catalogue has is not read as a typo")
    func exactThenPrefixThenTypo() async throws {
        try await withApp { app in
            try await app.addProduct("Buttermilk 1L", brand: "Dairy Farmers")
            try await app.addProduct("Salted Butter 250g", brand: "Anchor")
            try await app.addProduct("Pancake Batter", brand: "Betty")
            try await app.addProduct("Hard Dough Bread", brand: "National")
            try await app.addProduct("Chicken Breast 907g", brand: "CB")
            #expect(try await app.names("/v1/products?q=butter") == ["Salted Butter 250g", "Buttermilk 1L"])
            #expect(try await app.names("/v1/products?q=butte") == ["Salted Butter 250g", "Buttermilk 1L"])
            // No catalogue word is or begins with "buttr": the typo finds butter, whole, before buttermilk's beginning.
            #expect(try await app.names("/v1/products?q=buttr") == ["Salted Butter 250g", "Buttermilk 1L"])
            // "bread" is one letter from "breas", the beginning of breast; the catalogue has bread.
            #expect(try await app.names("/v1/products?q=bread") == ["Hard Dough Bread"])
            #expect(try await app.names("/v1/products?q=batter") == ["Pancake Batter"])
        }
    }

    @Test("missed or doubled letters count as one typo together: 'mozarela' is mozzarella")
    func doubledLetters() async throws {
        try await withApp { app in
            try await app.addProduct("Mozzarella Block 227g", brand: "Galbani")
            try await app.addProduct("Marinara Sauce", brand: "Ragu")
            try await app.addProduct("Callaloo 540g", brand: "Grace")
            #expect(try await app.names("/v1/products?q=mozarela") == ["Mozzarella Block 227g"])
            #expect(try await app.names("/v1/products?q=mozarella") == ["Mozzarella Block 227g"])
            #expect(try await app.names("/v1/products?q=calaloo") == ["Callaloo 540g"])
            #expect(try await app.names("/v1/products?q=marinnara") == ["Marinara Sauce"])
        }
    }

    @Test("every demo query of scripts/search-queries.tsv finds what it means in the first 10, and nothing else")
    func labelledDemoQueries() async throws {
        let labelled = try LabelledQuery.load().filter { $0.catalogue == "demo" }
        #expect(labelled.count >= 50)
        try await withApp { app in
            let store = try await app.loadDemo().storeID.uuidString.lowercased()
            for query in labelled {
                let reply = try await app.request(.get, "/v1/products?limit=10&storeId=\(store)&q=\(q(query.text))")
                let found = reply.json["items"].array.map { ($0["name"].string ?? "") + " " + ($0["brand"].string ?? "") }
                let relevant = found.filter(query.isRelevant)
                #expect(relevant.count == found.count, "\(query.text): unrelated \(found.filter { !query.isRelevant($0) })")
                if query.meant.isEmpty { continue }
                let everyRelevant = DemoCatalogue.products.filter { query.isRelevant($0.name + " " + $0.brand) }
                #expect(relevant.count == min(10, everyRelevant.count), "\(query.text): found \(found)")
            }
        }
    }

    /// Whether some word of `name` (split as search splits it) begins with `prefix`.
    private func hasWord(beginning prefix: String, in name: String) -> Bool {
        ProductQueries.searchWords(name).contains { $0.hasPrefix(prefix) }
    }
}

/// One line of `scripts/search-queries.tsv`: what a shopper typed, and the words they meant.
struct LabelledQuery {
    var catalogue: String
    var text: String
    /// Alternatives, each the words a relevant product has every one of; empty: nothing is relevant.
    var meant: [Set<String>]

    func isRelevant(_ nameAndBrand: String) -> Bool {
        let words = Set(
            nameAndBrand.lowercased().filter { $0 != "'" && $0 != "\u{2019}" }
                .split { !($0.isLetter || $0.isNumber) }.map(String.init))
        return meant.contains { $0.isSubset(of: words) }
    }

    static func load() throws -> [LabelledQuery] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../scripts/search-queries.tsv")
        return try String(contentsOf: file.standardizedFileURL, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { return nil }
            let meant = fields[2] == "-" ? [] : fields[2].components(separatedBy: " | ").map { Set($0.split(separator: " ").map(String.init)) }
            return LabelledQuery(catalogue: fields[0], text: fields[1], meant: meant)
        }
    }
}
