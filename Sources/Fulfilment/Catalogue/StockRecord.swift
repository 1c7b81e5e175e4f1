/// A product at one store: the stock row, with its location when it has one.
struct StockRecord: Sendable, Equatable {
    var storeID: StoreID
    var onHand: Int
    /// Held by open orders.
    var reserved: Int
    var minSupply: Int
    var location: LocationRecord?

    /// What a customer can still buy: on hand less what open orders hold.
    var available: Int { max(0, onHand - reserved) }
    /// At or below the reorder point.
    var isLow: Bool { onHand <= minSupply }
}
