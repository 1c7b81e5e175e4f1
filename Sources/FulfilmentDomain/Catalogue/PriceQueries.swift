import Foundation
import Logging
import PostgresNIO

/// The SQL of prices per store: a store's own in `store_prices` (migration 028), the catalogue's
/// on `products`; `store_price` (`sql/routines/`) is the one rule everything that charges asks.
package enum PriceQueries {
    /// The catalogue's price of a product and the caller's store's own; nil when no such product.
    package static func price(of product: ProductID, at scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> StorePriceRow? {
        let rows = try await client.run(
            """
            SELECT p.price_amount AS catalogue_amount, p.currency::text AS currency, sp.price_amount AS store_amount
              FROM products p LEFT JOIN store_prices sp ON sp.store_id = \(scope) AND sp.product_id = p.id
             WHERE p.id = \(product.rawValue)
            """, logger: logger)
        for try await row in rows { return try priceRow(row) }
        return nil
    }

    /// Writes the caller's store's own price when `currency` is the product's, in one statement;
    /// answers the prices as they now are (the store's unchanged when the currency differs: the
    /// caller tells why). Nil when no such product exists.
    package static func set(
        _ amount: Int64, currency: String, product: ProductID, by user: UserID, in scope: StoreScope,
        on client: PostgresClient, logger: Logger
    ) async throws -> StorePriceRow? {
        let rows = try await client.run(
            """
            WITH p AS (SELECT id, price_amount, currency::text AS currency FROM products WHERE id = \(product.rawValue)),
            written AS (
                INSERT INTO store_prices AS s (store_id, product_id, price_amount, updated_by)
                SELECT \(scope), p.id, \(amount), \(user.rawValue) FROM p WHERE p.currency = \(currency)
                ON CONFLICT (store_id, product_id) DO UPDATE
                   SET price_amount = EXCLUDED.price_amount, updated_at = now(), updated_by = EXCLUDED.updated_by
                RETURNING s.price_amount)
            SELECT p.price_amount AS catalogue_amount, p.currency,
                   coalesce((SELECT price_amount FROM written),
                            (SELECT price_amount FROM store_prices WHERE store_id = \(scope) AND product_id = p.id)) AS store_amount
              FROM p
            """, logger: logger)
        for try await row in rows { return try priceRow(row) }
        return nil
    }

    /// Removes the caller's store's own price; answers the catalogue's. Nil when no such product.
    package static func remove(product: ProductID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> StorePriceRow? {
        let rows = try await client.run(
            """
            WITH p AS (SELECT id, price_amount, currency::text AS currency FROM products WHERE id = \(product.rawValue)),
            gone AS (DELETE FROM store_prices s USING p WHERE s.store_id = \(scope) AND s.product_id = p.id)
            SELECT p.price_amount AS catalogue_amount, p.currency, NULL::int8 AS store_amount FROM p
            """, logger: logger)
        for try await row in rows { return try priceRow(row) }
        return nil
    }

    /// The prices from a row's `catalogue_amount`, `currency` and `store_amount` (the store's own, or NULL).
    private static func priceRow(_ row: PostgresRow) throws -> StorePriceRow {
        let r = row.makeRandomAccess()
        return StorePriceRow(
            catalog: try r["catalogue_amount"].decode(Int64.self), currency: try r["currency"].decode(String.self),
            own: try r["store_amount"].decode(Int64?.self))
    }

    /// The import's prices at its store by SKU, in the import's transaction (after its products
    /// exist): each row with a price sets the store's own.
    package static func set(_ prices: [(String, Int64)], store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        guard !prices.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO store_prices (store_id, product_id, price_amount)
            SELECT \(store.rawValue), p.id, u.price
              FROM unnest(\(prices.map(\.0))::text[], \(prices.map(\.1))::int8[]) AS u(sku, price) JOIN products p ON p.sku = u.sku
            ON CONFLICT (store_id, product_id) DO UPDATE
               SET price_amount = EXCLUDED.price_amount, updated_at = now(), updated_by = NULL
             WHERE store_prices.price_amount IS DISTINCT FROM EXCLUDED.price_amount
            """, logger: logger)
    }
}

/// A product's prices as `PriceQueries` reads them: the catalogue's amount and currency, and
/// the store's own amount (nil: none).
package struct StorePriceRow: Sendable, Equatable {
    package var catalog: Int64
    package var currency: String
    package var own: Int64?
}
