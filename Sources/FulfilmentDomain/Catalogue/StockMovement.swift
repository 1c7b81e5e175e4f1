import Foundation

/// One entry of the stock ledger.
package struct StockMovement: Sendable, Equatable {
    package var id: Int64
    package var productID: ProductID
    package var delta: Int
    package var reason: String
    package var note: String?
    package var onHandAfter: Int
    package var actorID: UserID?
    package var actorName: String?
    package var at: Date
    /// What it changed of `reserved` (on hand unchanged): a substitution's move (issue 27).
    package var reservedDelta: Int = 0
}
