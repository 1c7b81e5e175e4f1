import Foundation
import Logging
import PostgresNIO

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
            let existing = try await connection.run(
                "SELECT id FROM stores WHERE code = \(DemoCatalogue.storeCode)", logger: logger
            ).decode(UUID.self).first { _ in true }
            if let existing {
                return Summary(storeID: existing, created: false, products: 0)
            }
            let storeID = UUID()
            try await connection.run(
                """
                INSERT INTO stores (id, code, name, address, currency)
                VALUES (\(storeID), \(DemoCatalogue.storeCode), \(DemoCatalogue.storeName),
                        \(DemoCatalogue.storeAddress), \(DemoCatalogue.currency))
                """, logger: logger)
            try await CalendarQueries.replace(store: StoreID(storeID), with: DemoCatalogue.calendar, on: connection, logger: logger)
            var aisleIDs: [String: UUID] = [:]
            for aisle in DemoCatalogue.aisles {
                let id = UUID()
                aisleIDs[aisle.code] = id
                try await connection.run(
                    """
                    INSERT INTO aisles (id, store_id, code, name, walk_order, zone)
                    VALUES (\(id), \(storeID), \(aisle.code), \(aisle.name), \(aisle.walkOrder), \(aisle.zone))
                    """, logger: logger)
            }
            for product in DemoCatalogue.products {
                let productID = UUID()
                try await connection.run(
                    """
                    INSERT INTO products (id, sku, barcode, name, brand, description, category, price_amount, currency)
                    VALUES (\(productID), \(product.sku), \(product.barcode), \(product.name), \(product.brand),
                            \(product.description), \(product.category), \(Int64(product.price)), \(DemoCatalogue.currency))
                    """, logger: logger)
                let aisleID = product.aisle.flatMap { aisleIDs[$0] }
                let bay: Int? = aisleID == nil ? nil : product.bay
                let shelf: String? = aisleID == nil ? nil : product.shelf
                try await connection.run(
                    """
                    INSERT INTO stock (store_id, product_id, on_hand, min_supply, aisle_id, bay, shelf)
                    VALUES (\(storeID), \(productID), \(product.onHand), \(product.minSupply), \(aisleID), \(bay), \(shelf))
                    """, logger: logger)
            }
            return Summary(storeID: storeID, created: true, products: DemoCatalogue.products.count)
        }
    }
}
