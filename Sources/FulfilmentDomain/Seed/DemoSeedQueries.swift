import Foundation
import Logging
import PostgresNIO

/// The SQL of the demo seed: the demo stores, their aisles, the products with their stock and prices,
/// written straight to the tables in the seed's one transaction (`DemoSeed`), and a demo
/// product found by a fragment of its name (`DemoOrders`).
package enum DemoSeedQueries {
    /// The store with the demo's code, if the demo is loaded already.
    package static func store(code: String, on connection: PostgresConnection, logger: Logger) async throws -> StoreID? {
        let rows = try await connection.run("SELECT id FROM stores WHERE code = \(code)", logger: logger)
        for try await id in rows.decode(UUID.self) { return StoreID(id) }
        return nil
    }

    package static func insertStore(
        _ id: StoreID, code: String, name: String, address: String, currency: String, location: GeoPoint,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO stores (id, code, name, address, currency, latitude, longitude)
            VALUES (\(id.rawValue), \(code), \(name), \(address), \(currency), \(location.latitude), \(location.longitude))
            """, logger: logger)
    }

    /// Inserts an aisle of `store`; returns its id.
    package static func insertAisle(
        _ aisle: DemoAisle, store: StoreID, on connection: PostgresConnection, logger: Logger
    ) async throws -> UUID {
        let id = UUID()
        try await connection.run(
            """
            INSERT INTO aisles (id, store_id, code, name, walk_order, zone)
            VALUES (\(id), \(store.rawValue), \(aisle.code), \(aisle.name), \(aisle.walkOrder), \(aisle.zone))
            """, logger: logger)
        return id
    }

    /// Inserts a product of the catalogue and its stock at `store`, placed in `aisle` (at the
    /// product's bay and shelf) when one is given; returns the product's id.
    package static func insertProduct(
        _ product: DemoProduct, currency: String, store: StoreID, aisle: UUID?, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> ProductID {
        let id = UUID()
        try await connection.run(
            """
            INSERT INTO products (id, sku, barcode, name, brand, description, category, price_amount, currency)
            VALUES (\(id), \(product.sku), \(product.barcode), \(product.name), \(product.brand),
                    \(product.description), \(product.category), \(Int64(product.price)), \(currency))
            """, logger: logger)
        try await insertStock(
            product: ProductID(id), store: store, onHand: product.onHand, minSupply: product.minSupply, aisle: aisle,
            bay: aisle == nil ? nil : product.bay, shelf: aisle == nil ? nil : product.shelf, on: connection, logger: logger)
        return ProductID(id)
    }

    /// The product's picture (``DemoPictures``), its first image.
    package static func insertPicture(_ png: [UInt8], alt: String, product: ProductID, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.run(
            """
            INSERT INTO product_images (product_id, position, alt_text, content_type, bytes, sha256)
            VALUES (\(product.rawValue), 0, \(alt), 'image/png', \(ByteBuffer(bytes: png)), \(ByteBuffer(bytes: DemoPictures.sha256(png))))
            """, logger: logger)
    }

    package static func setPhone(_ phone: String, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("UPDATE stores SET phone = \(phone) WHERE id = \(store.rawValue)", logger: logger)
    }

    /// What the shop says about a category, its picture one of its products'.
    package static func insertCategory(_ name: String, description: String, picture: ProductID?, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.run(
            """
            INSERT INTO category_details (name, description, image_product_id) VALUES (\(name), \(description), \(picture?.rawValue))
            ON CONFLICT (name) DO NOTHING
            """, logger: logger)
    }

    /// The stock row that makes `store` carry `product`, placed when `aisle` is given.
    package static func insertStock(
        product: ProductID, store: StoreID, onHand: Int, minSupply: Int, aisle: UUID?, bay: Int?, shelf: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO stock (store_id, product_id, on_hand, min_supply, aisle_id, bay, shelf)
            VALUES (\(store.rawValue), \(product.rawValue), \(onHand), \(minSupply), \(aisle), \(bay), \(shelf))
            """, logger: logger)
    }

    /// `store`'s own price of `product` (as a manager's `PUT .../prices/{productId}` sets it).
    package static func insertStorePrice(
        product: ProductID, store: StoreID, amount: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO store_prices (store_id, product_id, price_amount)
            VALUES (\(store.rawValue), \(product.rawValue), \(amount))
            """, logger: logger)
    }

    /// The first product (by SKU) still sold whose name holds `fragment`, any case.
    /// The demo store's order with this number.
    package static func orderID(number: Int64, store: StoreID, on client: PostgresClient, logger: Logger) async throws -> OrderID? {
        let rows = try await client.run(
            "SELECT id FROM orders WHERE store_id = \(store.rawValue) AND number = \(number)", logger: logger)
        for try await id in rows.decode(UUID.self) { return OrderID(id) }
        return nil
    }

    package static func productID(named fragment: String, on client: PostgresClient, logger: Logger) async throws -> ProductID? {
        let pattern = "%\(fragment)%"
        let rows = try await client.run(
            "SELECT id FROM products WHERE name ILIKE \(pattern) AND NOT discontinued ORDER BY sku LIMIT 1", logger: logger)
        for try await id in rows.decode(UUID.self) { return ProductID(id) }
        return nil
    }
}

extension DemoSeedQueries {
    /// A catalogue line stocked only at the store with `storeCode` (the demo's uncarried ingredient).
    package static func insertCatalogueOnly(
        sku: String, name: String, price: Int64, currency: String, stockedAt storeCode: String, on client: PostgresClient, logger: Logger
    ) async throws -> ProductID {
        let rows = try await client.run(
            """
            WITH p AS (
                INSERT INTO products (sku, name, brand, category, price_amount, currency)
                VALUES (\(sku), \(name), 'Quick Cart', 'Meat & Fish', \(price), \(currency)) RETURNING id),
            s AS (INSERT INTO stock (store_id, product_id, on_hand) SELECT st.id, p.id, 12 FROM stores st, p WHERE st.code = \(storeCode))
            SELECT id FROM p
            """, logger: logger)
        return ProductID(try rows.collect()[0].decode(UUID.self))
    }
}
