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

    /// The demo's regular shoppers (`DemoHistory`): customers who cannot sign in (`!` is no
    /// bcrypt hash), `shopper-<n>@demo.example`.
    package static func insertShoppers(_ names: [String], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO users (email, name, password_hash, role)
            SELECT 'shopper-' || n || '@demo.example', name, '!', 'customer'
            FROM unnest(\(names)::text[]) WITH ORDINALITY AS s (name, n)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// `days` days of past orders at `store` ending yesterday, on its clock (`DemoHistory`): each
    /// day 6 to 22 orders (more at the weekend), placed between 08:00 and 20:00 with lunch and
    /// after-work peaks, 1 to 5 of the store's products each; 1 in 14 cancelled, the rest packed
    /// 20 minutes to 2½ hours after they were placed, for an hour's slot starting two hours after
    /// (so about one in six is ready late, and the reports have something to say), their customer
    /// at the desk a few minutes into the slot, paid there (a payment each) and handed over by the
    /// demo's staff member 1 to 12 minutes later. Numbers follow the time they were placed. One
    /// statement; returns the count.
    package static func insertHistory(
        store: StoreID, days: Int, staffEmail: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        let rows = try await connection.run(
            """
            WITH zone AS MATERIALIZED (
                SELECT z, (now() AT TIME ZONE z)::date AS today
                FROM (SELECT coalesce((SELECT time_zone FROM store_calendars WHERE store_id = \(store.rawValue)), 'UTC') AS z) c
            ), staff AS MATERIALIZED (
                SELECT id FROM users WHERE lower(email) = lower(\(staffEmail))
            ), shoppers AS MATERIALIZED (
                SELECT id, row_number() OVER (ORDER BY email) AS n FROM users WHERE email LIKE 'shopper-%@demo.example'
            ), catalogue AS MATERIALIZED (
                SELECT p.id, p.name, coalesce(sp.price_amount, p.price_amount) AS price, row_number() OVER (ORDER BY p.sku) AS n
                FROM stock s JOIN products p ON p.id = s.product_id
                LEFT JOIN store_prices sp ON sp.store_id = s.store_id AND sp.product_id = p.id
                WHERE s.store_id = \(store.rawValue) AND NOT p.discontinued AND p.minimum_age IS NULL
            ), placed AS MATERIALIZED (
                SELECT gen_random_uuid() AS id, at, status,
                       date_trunc('hour', at) + interval '2 hours' AS slot,
                       at + interval '20 minutes' + random() * interval '130 minutes' AS ready,
                       random() * interval '40 minutes' AS late_by, interval '1 minute' + random() * interval '11 minutes' AS wait,
                       (SELECT id FROM shoppers WHERE n = 1 + (abs(hashtext(at::text)) % (SELECT count(*) FROM shoppers))) AS customer
                FROM (
                    SELECT (((SELECT today FROM zone) - d)::timestamp
                            + CASE WHEN random() < 0.35 THEN interval '11 hours' + random() * interval '3 hours'
                                   WHEN random() < 0.5 THEN interval '16 hours' + random() * interval '4 hours'
                                   ELSE interval '8 hours' + random() * interval '12 hours' END)
                           AT TIME ZONE (SELECT z FROM zone) AS at,
                           CASE WHEN random() < 1.0 / 14 THEN 'cancelled' ELSE 'completed' END AS status
                    FROM generate_series(1, \(Int32(days))::int) d
                    CROSS JOIN LATERAL generate_series(1, 6 + (abs(hashtext(d::text)) % 11)
                        + CASE WHEN extract(isodow FROM (SELECT today FROM zone) - d) >= 6 THEN 6 ELSE 0 END) k
                ) o
                WHERE at < now()
            ), timed AS MATERIALIZED (
                -- Never later than now: an order placed last night is handed over by now at the latest.
                SELECT pl.*, least(pl.ready, now()) AS ready_at, least(greatest(pl.slot, pl.ready) + pl.late_by, now()) AS arrived_at,
                       least(greatest(pl.slot, pl.ready) + pl.late_by + pl.wait, now()) AS done_at
                FROM placed pl
            ), lines AS MATERIALIZED (
                SELECT pl.id AS order_id, c.id AS product_id, c.name, c.price AS unit_price, 1 + (random() * 2)::int AS quantity
                FROM placed pl
                CROSS JOIN LATERAL (
                    SELECT DISTINCT ON (c.n) c.* FROM catalogue c
                    WHERE c.n IN (SELECT 1 + (abs(hashtext(pl.id::text || k)) % (SELECT count(*) FROM catalogue))
                                  FROM generate_series(1, 1 + abs(hashtext(pl.id::text)) % 5) k)
                ) c
            ), totals AS MATERIALIZED (
                SELECT order_id, sum(unit_price * quantity)::int8 AS total FROM lines GROUP BY order_id
            ), written AS (
                INSERT INTO orders (id, store_id, customer_id, status, payment_method, payment_status, total_amount, currency,
                                    idempotency_key, request_hash, created_at, pickup_slot_start, pickup_slot_end, packaged_at,
                                    arrived_at, completed_at, collected_at, collected_by, paid_at, cancelled_at)
                SELECT pl.id, \(store.rawValue), pl.customer, pl.status, 'pay_at_collection',
                       CASE WHEN pl.status = 'completed' THEN 'paid' ELSE 'unpaid' END, t.total,
                       (SELECT currency FROM stores WHERE id = \(store.rawValue)), 'demo-history-' || pl.id,
                       sha256(convert_to(pl.id::text, 'UTF8')), pl.at, pl.slot, pl.slot + interval '1 hour',
                       CASE WHEN pl.status = 'completed' THEN pl.ready_at END,
                       CASE WHEN pl.status = 'completed' THEN pl.arrived_at END,
                       CASE WHEN pl.status = 'completed' THEN pl.done_at END,
                       CASE WHEN pl.status = 'completed' THEN pl.done_at END,
                       CASE WHEN pl.status = 'completed' THEN (SELECT id FROM staff) END,
                       CASE WHEN pl.status = 'completed' THEN pl.done_at END,
                       CASE WHEN pl.status = 'cancelled' THEN least(pl.at + interval '1 hour', now()) END
                FROM timed pl JOIN totals t ON t.order_id = pl.id
                WHERE pl.customer IS NOT NULL AND (pl.status = 'cancelled' OR (SELECT id FROM staff) IS NOT NULL)
                ORDER BY pl.at
                RETURNING id, status, total_amount, currency, collected_by, paid_at
            ), written_lines AS (
                INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity, picked_quantity)
                SELECT \(store.rawValue), l.order_id, l.product_id, l.name, l.unit_price, l.quantity,
                       CASE WHEN w.status = 'completed' THEN l.quantity END
                FROM lines l JOIN written w ON w.id = l.order_id
            ), paid AS (
                INSERT INTO payments (store_id, order_id, method, amount, currency, recorded_by, created_at)
                SELECT \(store.rawValue), w.id, CASE WHEN abs(hashtext(w.id::text)) % 3 = 0 THEN 'card' ELSE 'cash' END,
                       w.total_amount, w.currency, w.collected_by, w.paid_at
                FROM written w WHERE w.status = 'completed'
            )
            SELECT count(*) FROM written
            """, logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }
}
