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
            SELECT st.id AS store_id, st.code AS store_code, st.name AS store_name, o.price, p.currency::text AS currency, o.available,
                   round(o.distance)::int8 AS distance, o.regular, o.sale_ends_at
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
        for try await row in rows {
            found = true
            let r = row.makeRandomAccess()
            guard let id = try r["store_id"].decode(UUID?.self), let code = try r["store_code"].decode(String?.self),
                let name = try r["store_name"].decode(String?.self), let price = try r["price"].decode(Int64?.self),
                let available = try r["available"].decode(Int64?.self)
            else { continue }
            offers.append(
                BestPrice(
                    storeID: StoreID(id), storeCode: code, storeName: name, priceAmount: price, currency: try r["currency"].decode(String.self),
                    regularAmount: try r["regular"].decode(Int64?.self), saleEndsAt: try r["sale_ends_at"].decode(Date?.self),
                    available: Int(available), distanceMetres: try r["distance"].decode(Int64?.self).map(Int.init)))
        }
        return found ? offers : nil
    }
}
