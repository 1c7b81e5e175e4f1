import Foundation
import Logging

/// Loads the demo store (`DemoCatalogue`) and its pickup calendar in one transaction. Running it again changes
/// nothing: a store with the demo code already present means the demo is loaded.
public enum DemoSeed {
    public struct Summary: Sendable {
        public var storeID: UUID
        public var created: Bool
        public var products: Int
    }

    @discardableResult
    public static func load(into database: Database, logger: Logger) async throws -> Summary {
        try await database.transaction(logger: logger) { connection in
            if let existing = try await DemoSeedQueries.store(code: DemoCatalogue.storeCode, on: connection, logger: logger) {
                return Summary(storeID: existing.rawValue, created: false, products: 0)
            }
            let store = StoreID(UUID())
            try await DemoSeedQueries.insertStore(
                store, code: DemoCatalogue.storeCode, name: DemoCatalogue.storeName, address: DemoCatalogue.storeAddress,
                currency: DemoCatalogue.currency, on: connection, logger: logger)
            try await CalendarQueries.replace(store: store, with: DemoCatalogue.calendar, on: connection, logger: logger)
            var aisleIDs: [String: UUID] = [:]
            for aisle in DemoCatalogue.aisles {
                aisleIDs[aisle.code] = try await DemoSeedQueries.insertAisle(aisle, store: store, on: connection, logger: logger)
            }
            for product in DemoCatalogue.products {
                _ = try await DemoSeedQueries.insertProduct(
                    product, currency: DemoCatalogue.currency, store: store, aisle: product.aisle.flatMap { aisleIDs[$0] },
                    on: connection, logger: logger)
            }
            return Summary(storeID: store.rawValue, created: true, products: DemoCatalogue.products.count)
        }
    }
}
