import Foundation

/// A catalogue product, and (when a store was asked about) its stock there. `ProductQueries`
/// reads it from a row (`ProductQueries.record(_:)`).
struct ProductRecord: Sendable, Equatable {
    var id: ProductID
    var sku: String
    var barcode: String?
    var name: String
    var brand: String
    var description: String
    var category: String
    var priceAmount: Int64
    var currency: String
    var discontinued: Bool
    var hasImage: Bool
    var stock: StockRecord?
    /// The regular price at the store asked about (`store_regular_price`): above `priceAmount`
    /// while a sale runs there (issue 26).
    var regularAmount: Int64?
    /// When the sale that sets `priceAmount` ends (`store_sale_ends_at`); nil without one.
    var saleEndsAt: Date?
    /// Its visible reviews' ratings (issue 31), kept on the product's row.
    var rating = Rating(count: 0, sum: 0)

    /// The regular price while a sale sets the price below it, and when that sale ends.
    var sale: (regularAmount: Int64, endsAt: Date?)? {
        guard let regularAmount, regularAmount > priceAmount else { return nil }
        return (regularAmount, saleEndsAt)
    }
}
