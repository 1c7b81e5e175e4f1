import Foundation
import Logging
import PostgresNIO

/// A customer's cart, priced now and checked against the cart store's stock now.
public struct Cart: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var productID: ProductID
        public var name: String
        public var unitPrice: Int64
        public var quantity: Int
        /// What the cart's store could sell right now (`on_hand - reserved`; 0 when it carries none).
        public var available: Int
        public var discontinued: Bool
        public var lineTotal: Int64 { Money.lineTotal(unitPrice: unitPrice, quantity: quantity) }
    }

    public var storeID: StoreID?
    public var currency: String
    public var lines: [Line]
    /// Saturates rather than traps; checkout refuses a total that does not fit.
    public var total: Int64 { Money.sum(lines.map(\.lineTotal)) ?? .max }
}

/// The SQL of carts and cart items. A cart belongs to a customer and names one store; its
/// lines are kept when the store changes.
enum CartQueries {
    static let maximumQuantity = 99

    static func cart(customer: UserID, on connection: some SQLRunner, logger: Logger) async throws -> Cart {
        // The cart's store, or else the store the customer chose for browsing.
        let stores = try await connection.run(
            """
            SELECT s.id, s.currency::text FROM stores s
            WHERE s.id = coalesce(
                (SELECT store_id FROM carts WHERE customer_id = \(customer.rawValue)),
                (SELECT store_id FROM customer_stores WHERE user_id = \(customer.rawValue)))
            """, logger: logger)
        var store: (UUID, String)?
        for try await row in stores.decode((UUID, String).self) { store = row }
        let rows = try await connection.run(
            """
            SELECT i.product_id, p.name, p.price_amount, i.quantity, coalesce(s.on_hand - s.reserved, 0), p.discontinued
            FROM cart_items i
            JOIN products p ON p.id = i.product_id
            LEFT JOIN stock s ON s.store_id = \(store?.0) AND s.product_id = i.product_id
            WHERE i.customer_id = \(customer.rawValue)
            ORDER BY i.added_at, i.product_id
            """, logger: logger)
        var lines: [Cart.Line] = []
        for try await row in rows.decode((UUID, String, Int64, Int32, Int32, Bool).self) {
            lines.append(Cart.Line(
                productID: ProductID(row.0), name: row.1, unitPrice: row.2, quantity: Int(row.3), available: Int(row.4),
                discontinued: row.5))
        }
        return Cart(storeID: store.map { StoreID($0.0) }, currency: store?.1 ?? "JMD", lines: lines)
    }

    /// Points the cart at `store` (creating the cart); its lines stay.
    static func setStore(customer: UserID, store: StoreID, on client: PostgresClient, logger: Logger) async throws {
        do {
            try await client.run(
                """
                INSERT INTO carts (customer_id, store_id) VALUES (\(customer.rawValue), \(store.rawValue))
                ON CONFLICT (customer_id) DO UPDATE SET store_id = EXCLUDED.store_id, updated_at = now()
                """, logger: logger)
        } catch where error.sqlState == SQLState.foreignKeyViolation {
            throw OrderError.storeNotFound
        }
    }

    /// Sets a line's quantity (0 removes it). The cart is created at the customer's chosen
    /// store when it does not exist yet.
    static func setQuantity(
        customer: UserID, product: ProductID, quantity: Int, on database: Database, logger: Logger
    ) async throws {
        guard (0...maximumQuantity).contains(quantity) else { throw OrderError.invalidQuantity }
        if quantity == 0 {
            try await removeItem(customer: customer, product: product, on: database.client, logger: logger)
            return
        }
        try await database.transaction(logger: logger) { connection in
            let products = try await connection.run(
                "SELECT discontinued FROM products WHERE id = \(product.rawValue)", logger: logger)
            var discontinued: Bool?
            for try await row in products.decode(Bool.self) { discontinued = row }
            guard let discontinued else { throw OrderError.productNotFound }
            guard !discontinued else { throw OrderError.productDiscontinued(product) }
            let carts = try await connection.run(
                """
                INSERT INTO carts (customer_id, store_id)
                SELECT user_id, store_id FROM customer_stores WHERE user_id = \(customer.rawValue)
                ON CONFLICT (customer_id) DO UPDATE SET updated_at = now()
                RETURNING 1
                """, logger: logger)
            var hasCart = false
            for try await _ in carts { hasCart = true }
            if !hasCart {
                let existing = try await connection.run(
                    "UPDATE carts SET updated_at = now() WHERE customer_id = \(customer.rawValue) RETURNING 1", logger: logger)
                for try await _ in existing { hasCart = true }
            }
            guard hasCart else { throw OrderError.noStoreChosen }
            try await connection.run(
                """
                INSERT INTO cart_items (customer_id, product_id, quantity)
                VALUES (\(customer.rawValue), \(product.rawValue), \(quantity))
                ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity
                """, logger: logger)
        }
    }

    /// Removes a line; a product not in the cart is not an error, an unknown product is 404.
    static func removeItem(customer: UserID, product: ProductID, on client: PostgresClient, logger: Logger) async throws {
        let rows = try await client.run(
            """
            WITH gone AS (
                DELETE FROM cart_items WHERE customer_id = \(customer.rawValue) AND product_id = \(product.rawValue)
            )
            SELECT 1 FROM products WHERE id = \(product.rawValue)
            """, logger: logger)
        var exists = false
        for try await _ in rows { exists = true }
        guard exists else { throw OrderError.productNotFound }
    }

    static func clear(customer: UserID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run("DELETE FROM cart_items WHERE customer_id = \(customer.rawValue)", logger: logger)
    }
}
