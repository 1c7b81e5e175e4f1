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
}
