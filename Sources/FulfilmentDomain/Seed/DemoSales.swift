import Foundation
import Logging
import PostgresNIO

/// The demo store's sales (issue 26): two lines on sale for a week from seeding, so the shop's
/// "Sales" page, the regular price beside the sale price, and best price (the demo's second
/// branch has none, so it shows the regular price there) have something to show. Percentages
/// off are `Money.percentage`, the one rounding rule. Loaded with the demo store in its one
/// transaction.
public enum DemoSales {
    /// SKU and basis points off its catalogue price.
    public static let offers: [(sku: String, basisPoints: Int)] = [("QC-0029", 2_000), ("QC-0030", 1_500)]
    /// How long the demo's sales run from seeding.
    public static let length: TimeInterval = 7 * 86_400

    package static func insert(store: StoreID, products: [String: ProductID], on connection: PostgresConnection, logger: Logger) async throws {
        for offer in offers {
            guard let product = products[offer.sku], let price = DemoCatalogue.products.first(where: { $0.sku == offer.sku })?.price
            else { continue }
            let amount = Int64(price) - Money.percentage(of: Int64(price), basisPoints: offer.basisPoints)
            try await connection.run(
                """
                INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                VALUES (\(store.rawValue), \(product.rawValue), \(amount), now(), now() + make_interval(secs => \(length)))
                """, logger: logger)
        }
    }
}
