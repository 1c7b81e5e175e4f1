import Foundation
import FulfilmentDomain

/// The pickup times a customer chooses from, one day at a time (checkout, moving an order's
/// slot): a row of day links (`?day=YYYY-MM-DD`, a day with no time left says so), then that
/// day's times as radio buttons, a full one (no place, or no pickers' time left: issue 47) shown,
/// marked full, not to be chosen; one filling up says so. Nothing is
/// chosen until the customer chooses: a page drawn again after a refusal keeps their choice
/// (`chosen`), never puts a time they did not pick in its place.
enum SlotChooserView {
    /// `slots` in `zone`, the store's; `day` the day asked for (else the chosen slot's, else the
    /// first with room); `dayLink` the page's address for a day.
    static func chooser(
        slots: [PickupSlots.Availability], zone: TimeZone, storeName: String, chosen: Date?, day: LocalDate?, dayLink: (LocalDate) -> String
    ) -> HTML {
        let days = Dictionary(grouping: slots) { LocalDate($0.slot.start, in: zone) }
        let order = days.keys.sorted()
        let open = order.first { day in days[day]!.contains { !$0.isFull } }
        let shown = day.flatMap { days[$0] == nil ? nil : $0 } ?? chosen.map { LocalDate($0, in: zone) } ?? open ?? order.first
        guard let shown, let times = days[shown] else { return .empty }
        let links = HTML.join(
            order.map { date in
                let full = !days[date]!.contains { !$0.isFull }
                let current: HTML = date == shown ? " aria-current=\"date\"" : .empty
                return "<li><a href=\"\(dayLink(date))\" id=\"day-\(date.description)\"\(current)>\(label(date))\(full ? " (full)" : "")</a></li>"
            })
        let options = HTML.join(
            times.map { available in
                let start = Int64(available.slot.start.timeIntervalSince1970)
                let full = available.isFull
                let id = "slot-\(start)"
                let span = "\(SlotText.time(available.slot.start, zone))–\(SlotText.time(available.slot.end, zone))"
                let picked = !full && available.slot.start == chosen
                return """
                    <span class="slot\(HTML(trusted: full ? " full" : ""))"><input type="radio" name="pickupSlot" id="\(id)" value="\(start)" required\(HTML(trusted: full ? " disabled" : ""))\(HTML(trusted: picked ? " checked" : "")) data-start="\(zone.localISO8601(available.slot.start))">
                    <label for="\(id)">\(span)\(full ? " (full)" : available.remaining == 1 ? " (1 place left)" : available.room.status == .filling ? " (filling up)" : "")</label></span>
                    """
            })
        return """
            <p class="hint">Times are \(storeName)'s (\(zone.identifier)). Choose a day, then a time.</p>
            <nav aria-label="Days"><ul class="slot-days" id="slot-days">\(links)</ul></nav>
            <fieldset class="slots" id="slots-\(shown.description)"><legend>\(label(shown))</legend>\(options)</fieldset>
            """
    }

    /// "Fri 27 Nov".
    static func label(_ day: LocalDate) -> String {
        let (_, month, date) = day.components
        return "\(SlotText.weekdays[day.weekday - 1]) \(date) \(SlotText.months[month - 1])"
    }
}
