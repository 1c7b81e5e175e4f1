import Foundation
import Logging
import PostgresNIO

/// The SQL of the best price by barcode.
package enum BestPriceQueries {
    /// The product with `barcode` at every store that carries it (has a stock row for it),
    /// cheapest first, then nearest to `near` (stores without a location after those with one),
    /// then by store code; nil when no product has that barcode. One statement: the product
    /// comes back even when no store carries it (one row without a store).
    package static func offers(barcode: Barcode, near: GeoPoint?, on client: PostgresClient, logger: Logger) async throws -> [BestPrice]? {
        // The price is the store's (`store_price`: a running sale's, else its own, else the
        // catalogue's), with its regular price and the sale's end beside it while a sale sets it.
        let rows = try await client.run(
            """
            SELECT st.id, st.code, st.name, o.price, p.currency::text, o.available, round(o.distance)::int8, o.regular, o.sale_ends_at
            FROM products p
            LEFT JOIN (stock s JOIN stores st ON st.id = s.store_id) ON s.product_id = p.id
            CROSS JOIN LATERAL (
                SELECT store_price(p.id, st.id) AS price, store_regular_price(p.id, st.id) AS regular,
                       store_sale_ends_at(p.id, st.id) AS sale_ends_at,
                       greatest(s.on_hand - s.reserved, 0)::int8 AS available,
                       distance_metres(\(near?.latitude)::float8, \(near?.longitude)::float8, st.latitude, st.longitude) AS distance
            ) o
            WHERE p.barcode = \(barcode.digits)
            ORDER BY o.price, o.distance NULLS LAST, st.code
            """, logger: logger)
        var found = false
        var offers: [BestPrice] = []
        for try await (id, code, name, price, currency, available, distance, regular, saleEndsAt) in rows.decode(
            (UUID?, String?, String?, Int64?, String, Int64?, Int64?, Int64?, Date?).self)
        {
            found = true
            guard let id, let code, let name, let price, let available else { continue }
            offers.append(
                BestPrice(
                    storeID: StoreID(id), storeCode: code, storeName: name, priceAmount: price, currency: currency,
                    regularAmount: regular, saleEndsAt: saleEndsAt, available: Int(available), distanceMetres: distance.map(Int.init)))
        }
        return found ? offers : nil
    }
}
