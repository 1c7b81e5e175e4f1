/// A product at one store: the stock row, with its location when it has one.
package struct StockRecord: Sendable, Equatable {
    package var storeID: StoreID
    package var onHand: Int
    /// Held by open orders.
    package var reserved: Int
    package var minSupply: Int
    package var location: LocationRecord?

    /// What a customer can still buy: on hand less what open orders hold.
    package var available: Int { max(0, onHand - reserved) }
    /// At or below the reorder point.
    package var isLow: Bool { onHand <= minSupply }
}
