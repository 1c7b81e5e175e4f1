import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Catalogue: a customer keeps favourites that track stock at their store")
struct CatalogueFavouritesTests {
    @Test("favourites show availability at the chosen store (or ?storeId=), newest first; adding and removing are idempotent")
    func favourites() async throws {
        try await withApp { app in
            let home = try await app.catalogueStore()
            let other = try await app.catalogueStore()
            let ackee = try await app.addProduct("Ackee", at: home, onHand: 8, reserved: 2, aisle: "4", bay: 1, shelf: "A")
            let bread = try await app.addProduct("Bread", at: home, onHand: 0)
            try await sql(
                "INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 50)", [other.id, ackee], on: app.database)
            let customer = try await app.registerCustomer()
            for id in [ackee, bread, ackee] {
                #expect(try await app.request(.put, "/v1/favourites/\(id)", token: customer.token).status == .noContent)
            }
            let plain = try await app.request(.get, "/v1/favourites", token: customer.token)
            #expect(plain.json["items"].array.map { $0["product"]["name"].string } == ["Bread", "Ackee"])
            #expect(plain.json["items"][0]["product"]["availability"] == .null)

            let chosen = try await app.request(.put, "/v1/me/store", json: ["storeId": .string(home.id)], token: customer.token)
            #expect(chosen.status == .ok)
            let atHome = try await app.request(.get, "/v1/favourites", token: customer.token)
            let ackeeEntry = try #require(atHome.json["items"].array.first { $0["product"]["name"].string == "Ackee" })
            #expect(ackeeEntry["product"]["availability"]["available"].int == 6)
            #expect(ackeeEntry["product"]["availability"]["location"]["aisleCode"].string == "4")
            #expect(atHome.json["items"][0]["product"]["availability"]["inStock"].bool == false)

            let elsewhere = try await app.request(.get, "/v1/favourites?storeId=\(other.id)", token: customer.token)
            let there = try #require(elsewhere.json["items"].array.first { $0["product"]["name"].string == "Ackee" })
            #expect(there["product"]["availability"]["available"].int == 50)

            let page = try await app.request(.get, "/v1/favourites?limit=1", token: customer.token)
            let next = try #require(page.json["nextCursor"].string)
            let second = try await app.request(.get, "/v1/favourites?limit=1&cursor=\(q(next))", token: customer.token)
            #expect(second.json["items"][0]["product"]["name"].string == "Ackee")
            #expect(second.json["nextCursor"] == .null)

            for _ in 0..<2 {
                #expect(try await app.request(.delete, "/v1/favourites/\(bread)", token: customer.token).status == .noContent)
            }
            let remaining = try await app.request(.get, "/v1/favourites", token: customer.token)
            #expect(remaining.json["items"].array.map { $0["product"]["name"].string } == ["Ackee"])
        }
    }

    @Test("an unknown product is 404; staff and strangers can't keep favourites")
    func refusals() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let customer = try await app.registerCustomer()
            let unknown = try await app.request(.put, "/v1/favourites/\(UUID())", token: customer.token)
            #expect(unknown.status == .notFound)
            let staff = try await app.signIn(role: .staff, store: store.id)
            #expect(try await app.request(.get, "/v1/favourites", token: staff.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/favourites").status == .unauthorized)
            let badStore = try await app.request(.put, "/v1/me/store", json: ["storeId": .string(UUID().uuidString)], token: customer.token)
            #expect(badStore.status == .notFound)
        }
    }
}
