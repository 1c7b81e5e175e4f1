import Foundation
import Testing

@testable import Fulfilment

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

    /// A category listing as `[name: count]` pairs, in order.
    private func counts(_ reply: TestReply) -> [[String: Int]] {
        reply.json["items"].array.map { [$0["name"].string ?? "?": $0["productCount"].int ?? -1] }
    }
}
