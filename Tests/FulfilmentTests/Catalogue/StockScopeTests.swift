import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The second lock behind `AccessMiddleware`'s check of the path: the stock and minimum-age
/// services take the caller's `StoreScope` and bind it into their SQL, so even called directly,
/// with no route in front, another store's stock and ages are not there to read or change.
@Suite("Stock and a store's minimum age are bound to the caller's store")
struct StockScopeTests {
    @Test("staff of store B reach nothing of store A's stock, ledger or ages through the services")
    func otherStoreIsNotThere() async throws {
        try await withApp { app in
            let storeA = try await app.catalogueStore()
            let storeB = try await app.catalogueStore()
            let product = try await app.addProduct("Rum", at: storeA, onHand: 10, aisle: "4", bay: 2)
            let managerA = try await app.signIn(role: .manager, store: storeA.id)
            let path = "/v1/stores/\(storeA.id)/stock/\(product)"
            #expect(
                try await app.request(.post, path + "/adjustments", json: ["delta": 5, "reason": "received"], token: managerA.token)
                    .status == .created)
            let scopeA = try StoreScope(staff: identity(.manager, storeA.id))
            let scopeB = try StoreScope(staff: identity(.staff, storeB.id))
            let productID = try #require(ProductID(product))
            let logger = Logger(label: "test")
            try await app.withDatabase { database in
                let stock = Stock(database: database)
                let ages = MinimumAges(database: database)
                // Store A's own view, for contrast.
                #expect(try await stock.list(in: scopeA, lowOnly: false, limit: 10, cursor: nil, logger: logger).items.map(\.id) == [productID])
                #expect(try await stock.movements(of: productID, in: scopeA, limit: 10, cursor: nil, logger: logger).items.count == 1)
                // Store B sees none of it...
                #expect(try await stock.list(in: scopeB, lowOnly: false, limit: 10, cursor: nil, logger: logger).items.isEmpty)
                #expect(try await stock.movements(of: productID, in: scopeB, limit: 10, cursor: nil, logger: logger).items.isEmpty)
                await #expect(throws: CatalogueError.notStocked) {
                    try await stock.entry(of: productID, in: scopeB, logger: logger)
                }
                // ...cannot take it out of A's aisle...
                await #expect(throws: CatalogueError.notStocked) {
                    try await stock.clearLocation(product: productID, in: scopeB, logger: logger)
                }
                // ...and what it writes is its own store's: a count from 0 at B, an age at B.
                try await stock.set(
                    try StockLevel(onHand: 3, minSupply: 0), expected: 0, product: productID, in: scopeB,
                    by: try #require(UserID(managerA.userID)), logger: logger)
                _ = try await ages.setForStore(21, product: productID, in: scopeB, logger: logger)
                #expect(try await ages.at(scopeA, product: productID, logger: logger).store == nil)
                #expect(try await ages.at(scopeB, product: productID, logger: logger).store == 21)
            }
            #expect(try await app.stock(store: storeA.id, product: product) == (15, 0))
            #expect(try await app.stock(store: storeB.id, product: product) == (3, 0))
            let listed = try await app.request(.get, "/v1/stores/\(storeA.id)/stock", token: managerA.token)
            #expect(listed.json["items"][0]["location"]["aisleCode"].string == "4", "\(listed.text)")
        }
    }

    private func identity(_ role: Role, _ store: String) throws -> Identity {
        Identity(userID: UserID(UUID()), role: role, storeID: StoreID(store), sessionID: SessionID(UUID()))
    }
}
