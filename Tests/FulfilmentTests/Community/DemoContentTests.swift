import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The demo's community: news to read and recipes to cook on the first make run")
struct DemoContentTests {
    @Test("two published news items (one pinned), two recipes of demo products; one names a product the store does not carry")
    func demoContent() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let manager = try await app.signIn(role: .manager, store: store)
            let customer = try await app.registerCustomer()
            let emails = try await sql(
                "SELECT email FROM users WHERE id = ANY($1::uuid[]) ORDER BY role", ["{\(customer.userID),\(manager.userID)}"], on: app.database)
            let database = try FulfilmentDomain.Database(connection: app.database, logger: Logger(label: "test"))
            try await withRunning(database) {
                try await DemoContent.prepare(
                    into: database, store: StoreID(demo.storeID), managerEmail: emails[1][0]!, customerEmail: emails[0][0]!,
                    logger: Logger(label: "test"))
            }

            let news = try await app.request(.get, "/v1/stores/\(store)/news").json["items"].array
            #expect(news.count == 2 && news.first?["pinned"].bool == true)
            let recipes = try await app.request(.get, "/v1/recipes?storeId=\(store)").json["items"].array
            #expect(Set(recipes.compactMap { $0["title"].string }) == Set(DemoContent.recipeTitles))
            let ackee = try #require(recipes.first { $0["title"].string == DemoContent.recipeTitles[1] })
            #expect(ackee["carried"]["carried"].int == 4 && ackee["carried"]["of"].int == 5)

            let shopper = try await app.registerCustomer()
            try await app.chooseStore(shopper, store)
            let added = try await app.request(.post, "/v1/recipes/\(ackee["id"].string ?? "")/add-to-cart", json: [:], token: shopper.token)
            #expect(added.json["added"].array.count == 4, "\(added.text)")
            #expect(added.json["notAdded"].array.map { $0["reason"].string } == ["not_carried"])
        }
    }
}
