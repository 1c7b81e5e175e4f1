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
        // The cart's store, or else the store the customer chose for browsing; then one row per
        // line (or one row of NULL lines for an empty cart), all in one statement.
        let rows = try await connection.run(
            """
            WITH store AS (
                SELECT s.id, s.currency::text AS currency FROM stores s
                WHERE s.id = coalesce(
                    (SELECT store_id FROM carts WHERE customer_id = \(customer.rawValue)),
                    (SELECT store_id FROM customer_stores WHERE user_id = \(customer.rawValue)))
            )
            SELECT store.id, store.currency, l.product_id, l.name, l.price_amount, l.quantity, l.available, l.discontinued
            FROM (SELECT 1) AS one
            LEFT JOIN store ON true
            LEFT JOIN LATERAL (
                SELECT i.product_id, p.name, p.price_amount, i.quantity, coalesce(s.on_hand - s.reserved, 0) AS available,
                       p.discontinued, i.added_at
                FROM cart_items i
                JOIN products p ON p.id = i.product_id
                LEFT JOIN stock s ON s.store_id = store.id AND s.product_id = i.product_id
                WHERE i.customer_id = \(customer.rawValue)
            ) AS l ON true
            ORDER BY l.added_at, l.product_id
            """, logger: logger)
        var store: (UUID, String)?
        var lines: [Cart.Line] = []
        for try await row in rows.decode((UUID?, String?, UUID?, String?, Int64?, Int32?, Int32?, Bool?).self) {
            if let id = row.0, let currency = row.1 { store = (id, currency) }
            guard let product = row.2, let name = row.3, let price = row.4, let quantity = row.5, let available = row.6,
                let discontinued = row.7
            else { continue }
            lines.append(Cart.Line(
                productID: ProductID(product), name: name, unitPrice: price, quantity: Int(quantity), available: Int(available),
                discontinued: discontinued))
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

    /// Sets a line's quantity (0 removes it) for the caller, and admits them: one statement,
    /// which also resolves a presented token and writes only for a caller who will be admitted.
    /// The cart is created at the customer's chosen store when it does not exist yet.
    @discardableResult
    static func setQuantity(
        caller: Caller, product: ProductID, quantity: Int, on database: Database, logger: Logger
    ) async throws -> Identity {
        guard (0...maximumQuantity).contains(quantity) else { throw OrderError.invalidQuantity }
        // The cart row is made (at the chosen store) or touched, and the line written, only for a
        // product that exists and is on sale; the answer says which held.
        let rows = try await database.retryingConflicts(logger: logger) {
            if quantity == 0 {
                return try await database.client.run(
                    """
                    WITH \(admittedCaller: caller), gone AS (
                        DELETE FROM cart_items WHERE customer_id IN (SELECT id FROM who) AND product_id = \(product.rawValue)
                    )
                    SELECT \(unescaped: Caller.columns), (SELECT discontinued AND false FROM products WHERE id = \(product.rawValue)), true
                    FROM c
                    """, logger: logger)
            }
            return try await database.client.run(
                """
                WITH \(admittedCaller: caller), product AS (
                    SELECT discontinued FROM products WHERE id = \(product.rawValue)
                ), cart AS (
                    INSERT INTO carts (customer_id, store_id)
                    SELECT who.id, chosen.store_id FROM who, LATERAL (
                        SELECT coalesce(
                            (SELECT store_id FROM carts WHERE customer_id = who.id),
                            (SELECT store_id FROM customer_stores WHERE user_id = who.id)) AS store_id
                    ) AS chosen
                    WHERE chosen.store_id IS NOT NULL AND EXISTS (SELECT 1 FROM product WHERE NOT discontinued)
                    ON CONFLICT (customer_id) DO UPDATE SET updated_at = now()
                    RETURNING customer_id
                ), line AS (
                    INSERT INTO cart_items (customer_id, product_id, quantity)
                    SELECT customer_id, \(product.rawValue), \(quantity) FROM cart
                    ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity
                )
                SELECT \(unescaped: Caller.columns), (SELECT discontinued FROM product), EXISTS (SELECT 1 FROM cart)
                FROM c
                """, logger: logger)
        }
        let row = rows.collect().first?.makeRandomAccess()
        let customer = try caller.admit(row)
        guard let row else { throw APIError.internal }
        let first = Caller.columnCount
        // A removal answers "written" whatever was there: a product not in the cart is not an error.
        guard let discontinued = try row[first].decode(Bool?.self) else { throw OrderError.productNotFound }
        guard !discontinued else { throw OrderError.productDiscontinued(product) }
        guard try row[first + 1].decode(Bool.self) else { throw OrderError.noStoreChosen }
        return customer
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
