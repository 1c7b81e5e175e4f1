import Foundation
import Logging
import PostgresNIO

/// Loads the demo store (`DemoCatalogue`) with its pickup calendar and rota, and the chain's second branch with its
/// own prices, in one transaction. Running it again changes nothing: a store with the demo code already
/// present means the demo is loaded.
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
                currency: DemoCatalogue.currency, location: DemoCatalogue.storeLocation, on: connection, logger: logger)
            try await CalendarQueries.replace(store: store, with: DemoCatalogue.calendar, on: connection, logger: logger)
            try await RotaQueries.replace(store: store, with: DemoCatalogue.rota, on: connection, logger: logger)
            try await BagQueries.replacePlaces(store: store, with: DemoCatalogue.stagingPlaces, on: connection, logger: logger)
            var aisleIDs: [String: UUID] = [:]
            for aisle in DemoCatalogue.aisles {
                aisleIDs[aisle.code] = try await DemoSeedQueries.insertAisle(aisle, store: store, on: connection, logger: logger)
            }
            var productIDs: [String: ProductID] = [:]
            for product in DemoCatalogue.products {
                productIDs[product.sku] = try await DemoSeedQueries.insertProduct(
                    product, currency: DemoCatalogue.currency, store: store, aisle: product.aisle.flatMap { aisleIDs[$0] },
                    on: connection, logger: logger)
            }
            try await loadSecondStore(products: productIDs, on: connection, logger: logger)
            // Pictures and what the shop says about each category (issue 45).
            for product in DemoCatalogue.products {
                guard let id = productIDs[product.sku] else { continue }
                let (png, alt) = DemoPictures.picture(for: product)
                try await DemoSeedQueries.insertPicture(png, alt: alt, product: id, on: connection, logger: logger)
            }
            for (category, description) in DemoCatalogue.categoryDescriptions {
                let first = DemoCatalogue.products.first { $0.category == category }.flatMap { productIDs[$0.sku] }
                try await DemoSeedQueries.insertCategory(category, description: description, picture: first, on: connection, logger: logger)
            }
            try await DemoSeedQueries.setPhone(DemoCatalogue.storePhone, store: store, on: connection, logger: logger)
            try await DemoSales.insert(store: store, products: productIDs, on: connection, logger: logger)
            try await DemoCoupons.insert(store: store, on: connection, logger: logger)
            return Summary(storeID: store.rawValue, created: true, products: DemoCatalogue.products.count)
        }
    }

    /// The second branch: its calendar and aisles as the first's, the lines with a barcode in the
    /// same places (its own stock where `secondStoreOnHand` says), and its own prices.
    private static func loadSecondStore(products: [String: ProductID], on connection: PostgresConnection, logger: Logger) async throws {
        let store = StoreID(UUID())
        try await DemoSeedQueries.insertStore(
            store, code: DemoCatalogue.secondStoreCode, name: DemoCatalogue.secondStoreName, address: DemoCatalogue.secondStoreAddress,
            currency: DemoCatalogue.currency, location: DemoCatalogue.secondStoreLocation, on: connection, logger: logger)
        try await CalendarQueries.replace(store: store, with: DemoCatalogue.calendar, on: connection, logger: logger)
        try await RotaQueries.replace(store: store, with: DemoCatalogue.rota, on: connection, logger: logger)
        var aisleIDs: [String: UUID] = [:]
        for aisle in DemoCatalogue.aisles {
            aisleIDs[aisle.code] = try await DemoSeedQueries.insertAisle(aisle, store: store, on: connection, logger: logger)
        }
        for product in DemoCatalogue.products where product.barcode != nil {
            guard let id = products[product.sku] else { continue }
            let aisle = product.aisle.flatMap { aisleIDs[$0] }
            try await DemoSeedQueries.insertStock(
                product: id, store: store, onHand: DemoCatalogue.secondStoreOnHand[product.sku] ?? product.onHand,
                minSupply: product.minSupply, aisle: aisle, bay: aisle == nil ? nil : product.bay, shelf: aisle == nil ? nil : product.shelf,
                on: connection, logger: logger)
            if let price = DemoCatalogue.secondStorePrices[product.sku] {
                try await DemoSeedQueries.insertStorePrice(product: id, store: store, amount: Int64(price), on: connection, logger: logger)
            }
        }
    }
}
