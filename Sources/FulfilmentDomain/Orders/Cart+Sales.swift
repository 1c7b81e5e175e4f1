import Foundation
import PostgresNIO

extension CartQueries {
    /// Each line's regular price and the end of the sale that prices it (issue 26), read beside
    /// `cart_view`'s rows (alias `v`) in the same statement; ``Cart/showingSales(_:)`` reads them.
    package static let saleColumns =
        "store_regular_price(v.product_id, v.store_id) AS regular_price, store_sale_ends_at(v.product_id, v.store_id) AS sale_ends_at"
}

extension Cart {
    /// The cart with each line's regular price and sale end from the rows' `regular_price` and
    /// `sale_ends_at` (``CartQueries/saleColumns``): shown only while the line's price is below
    /// the regular one, that is while a sale sets it.
    package func showingSales(_ rows: [PostgresRandomAccessRow]) throws -> Cart {
        var sales: [ProductID: (regular: Int64, endsAt: Date?)] = [:]
        for row in rows {
            guard let product = try row["product_id"].decode(UUID?.self), let regular = try row["regular_price"].decode(Int64?.self)
            else { continue }
            sales[ProductID(product)] = (regular, try row["sale_ends_at"].decode(Date?.self))
        }
        var cart = self
        for index in cart.lines.indices {
            guard let sale = sales[cart.lines[index].productID], sale.regular > cart.lines[index].unitPrice else { continue }
            cart.lines[index].regularPrice = sale.regular
            cart.lines[index].saleEndsAt = sale.endsAt
        }
        return cart
    }
}
