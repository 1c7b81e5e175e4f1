import Foundation

/// An order about to move to another pickup slot: what the move needs of it, read with its row
/// locked (`OrderSlotQueries.lockOwnOrder`).
struct MovingOrder: Sendable {
    var store: StoreID
    var status: OrderStatus
    /// The start of the slot it holds; nil when it holds none.
    var slotStart: Date?
    /// The store's number in pickup tokens.
    var tokenNumber: UInt32
}
