import Foundation

/// Why a slot can take no more orders (issue 47): `slot_refusal`'s answer.
public enum SlotFullReason: String, Sendable, Equatable, CaseIterable {
    /// Every place (the calendar's capacity in orders) is taken.
    case places
    /// The pick work booked leaves no room for another order within what the rota's pickers can do.
    case work
}

/// How a slot looks to a customer (issue 47): `slot_status`'s answer.
package enum SlotStatus: String, Sendable, Equatable, CaseIterable {
    case available
    /// More than three quarters of its places or of its pickers' work is booked.
    case filling
    /// It cannot take even a one-line order (see ``SlotFullReason``).
    case full
}

/// The room a slot has left, as the database counts it (`SlotBookingQueries.rooms`).
package struct SlotRoom: Sendable, Equatable {
    /// Places left (`slot_places_left`).
    package var remaining: Int
    package var status: SlotStatus
    /// Why it is full; nil unless ``status`` is `.full`.
    package var fullBecause: SlotFullReason?
}
