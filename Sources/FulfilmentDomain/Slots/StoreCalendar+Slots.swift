import Foundation

/// One pickup slot: an interval of real time. Its local face is the store zone's business.
public struct PickupSlot: Sendable, Hashable {
    public var start: Date
    public var end: Date
}

/// Why a slot cannot be booked (`422 slot_unavailable`, `details.reason`).
public enum SlotRefusal: String, Sendable, Equatable {
    case past
    case insideLeadTime = "inside_lead_time"
    case closed
    case notOnGrid = "not_on_grid"
    case beyondHorizon = "beyond_horizon"
    /// The store takes no slots (it has no calendar).
    case noCalendar = "no_calendar"
}

/// Slot generation: pure functions of the calendar and a `now` the caller passes, so the rules
/// are tested without a database or a clock.
///
/// Each opening range is laid out in real time: its open and close are turned into instants in
/// the store's zone (on the day the clocks change a range is an hour shorter or longer), and
/// slots of `slotMinutes` are cut from the open while a whole slot fits before the close. A
/// range past midnight belongs to the day it opens. So a slot's local start can read 01:00
/// twice on the night the clocks go back, with two different offsets: two different slots.
extension StoreCalendar {
    /// Every slot of the ranges that open on `date` (none when that date is closed), in time order.
    public func slots(openingOn date: LocalDate, ignoringClosures: Bool = false) -> [PickupSlot] {
        guard ignoringClosures || !isClosed(date) else { return [] }
        var slots: [PickupSlot] = []
        for range in hours where range.weekday == date.weekday {
            let open = timeZone.instant(of: date, minute: range.opens)
            let close = timeZone.instant(of: range.closes > range.opens ? date : date.adding(days: 1), minute: range.closes)
            var start = open
            while start.addingTimeInterval(slotLength) <= close {
                slots.append(PickupSlot(start: start, end: start.addingTimeInterval(slotLength)))
                start = start.addingTimeInterval(slotLength)
            }
        }
        return slots.sorted { $0.start < $1.start }
    }

    /// The slots customers can book starting on the local dates `from` ... `from + days - 1`:
    /// not closed, not inside the lead time, not beyond the horizon.
    public func bookableSlots(from: LocalDate, days: Int, now: Date) -> [PickupSlot] {
        let windowStart = timeZone.instant(of: from, minute: 0)
        let windowEnd = timeZone.instant(of: from.adding(days: days), minute: 0)
        return (-1..<days).flatMap { slots(openingOn: from.adding(days: $0)) }
            .filter { $0.start >= windowStart && $0.start < windowEnd && refusal(for: $0.start, now: now) == nil }
    }

    /// The earliest moment a slot may start, and the moment it must start before.
    package func bookingWindow(now: Date) -> (earliest: Date, before: Date) {
        (now.addingTimeInterval(TimeInterval(leadMinutes * 60)), now.addingTimeInterval(TimeInterval(horizonDays * 86_400)))
    }

    /// The slot starting at `start` if a customer may book it now, else why not.
    public func slot(startingAt start: Date, now: Date) throws(SlotError) -> PickupSlot {
        guard start >= now else { throw .unavailable(.past) }
        let date = LocalDate(start, in: timeZone)
        let candidates = [date.adding(days: -1), date]
        if let slot = candidates.lazy.flatMap({ self.slots(openingOn: $0) }).first(where: { $0.start == start }) {
            if let refusal = refusal(for: slot.start, now: now) { throw .unavailable(refusal) }
            return slot
        }
        let grid = candidates.flatMap { slots(openingOn: $0, ignoringClosures: true) }
        if grid.contains(where: { $0.start == start }) { throw .unavailable(.closed) }
        if grid.contains(where: { $0.start < start && start < $0.end }) { throw .unavailable(.notOnGrid) }
        throw .unavailable(.closed)
    }

    /// Why a slot on the grid starting at `start` cannot be booked now; nil when it can.
    package func refusal(for start: Date, now: Date) -> SlotRefusal? {
        let window = bookingWindow(now: now)
        if start < now { return .past }
        if start < window.earliest { return .insideLeadTime }
        if start >= window.before { return .beyondHorizon }
        return nil
    }

    /// When an order booked in `slot` can no longer be collected: its end plus the grace period.
    /// Its pickup token expires then, and the expiry sweep cancels it as uncollected once it has.
    ///
    /// The uncollected-order deadline has two authors, since a token is signed before any
    /// statement writes it: this one, which checkout (`Checkout.place`) and moving an order
    /// (`PickupSlots.move`) ask for a token with a slot; and `collection_deadline`
    /// (`sql/routines/collection_deadline.sql`), which `checkout_context` asks for a token without
    /// a slot (issue time plus the store's collection window) and a receipt re-issued at the desk
    /// asks (`ReceiptQueries.lockedForReissue`). `CollectionDeadlineAgreementTests` compares this with `collection_deadline` over
    /// slots in several zones (the days the clocks change included) and grace periods, and checks
    /// the tokens of checkout, a move and a re-issue against them: change the sides together.
    public func collectionDeadline(for slot: PickupSlot) -> Date { slot.end.addingTimeInterval(grace) }
}
