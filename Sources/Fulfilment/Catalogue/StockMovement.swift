import Foundation

/// One entry of the stock ledger.
struct StockMovement: Sendable, Equatable {
    var id: Int64
    var productID: ProductID
    var delta: Int
    var reason: String
    var note: String?
    var onHandAfter: Int
    var actorID: UserID?
    var actorName: String?
    var at: Date
    /// What it changed of `reserved` (on hand unchanged): a substitution's move (issue 27).
    var reservedDelta: Int = 0
}
