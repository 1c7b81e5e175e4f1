import Foundation

/// One store's offer of a product, as the best price by barcode lists it.
package struct BestPrice: Sendable, Equatable {
    package var storeID: StoreID
    package var storeCode: String
    package var storeName: String
    /// The store's price (`store_price`), in the product's minor units.
    package var priceAmount: Int64
    package var currency: String
    /// The store's regular price (`store_regular_price`): above `priceAmount` while a sale runs there.
    package var regularAmount: Int64?
    /// When the sale that sets `priceAmount` ends (`store_sale_ends_at`); nil without one.
    package var saleEndsAt: Date?
    /// What a customer can still buy there: on hand less what open orders hold (`StockRecord.available`).
    package var available: Int
    /// From where the customer asked, when they said and the store has a location.
    package var distanceMetres: Int?
}
