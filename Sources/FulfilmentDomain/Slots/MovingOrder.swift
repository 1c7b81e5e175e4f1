import Foundation

/// An order about to move to another pickup slot: what the move needs of it, read with its row
/// locked (`OrderSlotQueries.lockOwnOrder`).
package struct MovingOrder: Sendable {
    package var store: StoreID
    package var status: OrderStatus
    /// The start of the slot it holds; nil when it holds none.
    package var slotStart: Date?
    /// The store's number in pickup tokens.
    package var tokenNumber: UInt32
    /// Its pick work as its lines are now, in seconds (`order_pick_work`): what it books in the new slot.
    package var work: Int
}
