import Foundation

/// A slot as people read it in a store: its local day and times (`Mon 23 Nov 14:00–14:30`),
/// with no locale involved, so every server prints the same. For the board, desk and pick sheet.
package enum SlotText {
    package static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Mon 23 Nov 14:00–14:30` in `zone` (UTC when the store's zone is unknown).
    package static func label(_ slot: PickupSlot, in zone: TimeZone?) -> String {
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let day = LocalDate(slot.start, in: zone)
        let (_, month, date) = day.components
        return "\(weekdays[day.weekday - 1]) \(date) \(months[month - 1]) \(time(slot.start, zone))–\(time(slot.end, zone))"
    }

    package static func time(_ instant: Date, _ zone: TimeZone) -> String { StoreCalendar.clock(zone.minuteOfDay(instant)) }

    /// Whether an open order in `slot` is late: its slot has ended and it is not collected.
    package static func isLate(_ slot: PickupSlot?, now: Date) -> Bool { slot.map { $0.end <= now } ?? false }
}
