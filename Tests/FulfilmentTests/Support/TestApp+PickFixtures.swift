import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Fixtures for the pick-list tests, written straight to the database: aisles, located
/// products, and pending orders as checkout leaves them.
extension TestApp {
    /// An aisle of `store`; returns its id.
    func createAisle(store: String, code: String, name: String, walkOrder: Int, zone: String = "ambient") async throws -> String {
        try await sql(
            "INSERT INTO aisles (store_id, code, name, walk_order, zone) VALUES ($1, $2, $3, $4, $5) RETURNING id",
            [store, code, name, String(walkOrder), zone], on: database)[0][0]!
    }

    /// A product with stock at `store` (and a location when `aisle` is given); returns its id.
    func createProduct(
        store: String, name: String, barcode: String? = nil, price: Int = 1000, onHand: Int = 50,
        aisle: String? = nil, bay: Int = 1, shelf: String = "A"
    ) async throws -> String {
        let sku = "SKU-\(UUID().uuidString.prefix(8))"
        let id = try await sql(
            """
            INSERT INTO products (sku, barcode, name, brand, price_amount, currency)
            VALUES ($1, NULLIF($2, ''), $3, 'Brand', $4, 'JMD') RETURNING id
            """, [sku, barcode ?? "", name, String(price)], on: database)[0][0]!
        _ = try await sql(
            """
            INSERT INTO stock (store_id, product_id, on_hand, aisle_id, bay, shelf)
            VALUES ($1, $2, $3, NULLIF($4, '')::uuid, CASE WHEN $4 = '' THEN NULL ELSE $5::int END,
                    CASE WHEN $4 = '' THEN NULL ELSE $6 END)
            """, [store, id, String(onHand), aisle ?? "", String(bay), shelf], on: database)
        return id
    }

    /// A pending, pay-at-collection order of `customer` at `store`, with its stock reserved,
    /// as checkout leaves it; returns the order id.
    func createPendingOrder(store: String, customer: String, lines: [(product: String, quantity: Int)]) async throws -> String {
        let id = UUID().uuidString.lowercased()
        _ = try await sql(
            """
            INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash)
            VALUES ($1, $2, $3, 'pay_at_collection', 0, 'JMD', $4, sha256(convert_to($4, 'UTF8')))
            """, [id, store, customer, id], on: database)
        for line in lines {
            _ = try await sql(
                """
                INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
                SELECT $1, $2, p.id, p.name, p.price_amount, $4 FROM products p WHERE p.id = $3
                """, [store, id, line.product, String(line.quantity)], on: database)
            _ = try await sql(
                "UPDATE stock SET reserved = reserved + $3 WHERE store_id = $1 AND product_id = $2",
                [store, line.product, String(line.quantity)], on: database)
        }
        _ = try await sql(
            "UPDATE orders SET total_amount = (SELECT sum(unit_price * quantity) FROM order_lines WHERE order_id = $1) WHERE id = $1",
            [id], on: database)
        return id
    }
}
