import Foundation
import FulfilmentDomain

/// Checking out, shown by `GET /shop/checkout` and by a refused `POST /shop/checkout`: the cart's
/// total, the store's pickup slots for the coming days by day (a full one shown, marked full, not
/// to be chosen; none when the store keeps no calendar), and "Place order".
enum ShopCheckoutView {
    /// `slots` are the store's for the coming days, in `zone`; `hasCalendar` false when the store
    /// takes orders at any time of its opening hours. `attempt` is the form's idempotency key.
    static func page(
        frame: ShopPageView.Frame, store: StoreRecord, cart: Cart, itemCount: Int, slots: [PickupSlots.Availability], zone: TimeZone?,
        hasCalendar: Bool, attempt: String
    ) -> ConsolePage {
        let chooser: HTML
        if !hasCalendar {
            chooser = "<p id=\"no-slots-needed\">Collect any time during \(store.name)'s opening hours.</p>"
        } else if slots.isEmpty {
            chooser = "<p class=\"notice notice-refused\" id=\"no-slots\">No pickup times are open in the coming week. Try again later.</p>"
        } else {
            let zone = zone ?? TimeZone(identifier: "UTC")!
            let firstOpen = slots.first { $0.remaining > 0 }?.slot.start
            let days = Dictionary(grouping: slots) { LocalDate($0.slot.start, in: zone) }
            let groups = HTML.join(
                days.keys.sorted().map { day in
                    let (_, month, date) = day.components
                    let legend = "\(SlotText.weekdays[day.weekday - 1]) \(date) \(SlotText.months[month - 1])"
                    let options = HTML.join(
                        days[day]!.map { available in
                            let start = Int64(available.slot.start.timeIntervalSince1970)
                            let full = available.remaining == 0
                            let id = "slot-\(start)"
                            let times = "\(SlotText.time(available.slot.start, zone))–\(SlotText.time(available.slot.end, zone))"
                            return """
                                <span class="slot\(HTML(trusted: full ? " full" : ""))"><input type="radio" name="pickupSlot" id="\(id)" value="\(start)"\(HTML(trusted: full ? " disabled" : ""))\(HTML(trusted: available.slot.start == firstOpen ? " checked" : "")) data-start="\(zone.localISO8601(available.slot.start))">
                                <label for="\(id)">\(times)\(full ? " (full)" : available.remaining == 1 ? " (1 place left)" : "")</label></span>
                                """
                        })
                    return "<fieldset class=\"slots\"><legend>\(legend)</legend>\(options)</fieldset>"
                })
            chooser = """
                <p class="hint">Times are \(store.name)'s (\(zone.identifier)).</p>
                \(groups)
                """
        }
        return ShopPageView.page(
            "Check out", frame: frame,
            body: """
                <h1>Choose a pickup time</h1>
                <p>\(cart.lines.count == 1 ? "1 product" : "\(cart.lines.count) products"), \(itemCount) items: total <strong id="checkout-total">\(MoneyText.format(cart.total, cart.currency))</strong>. <a href="/shop/cart">Change the cart</a></p>
                <form method="post" action="/shop/checkout" id="checkout-form">
                \(ConsolePage.csrfInput(frame.session))
                <input type="hidden" name="attempt" value="\(attempt)">
                \(chooser)
                <p>You pay at the desk when you collect.</p>
                <button type="submit" class="big" id="place-order"\(HTML(trusted: hasCalendar && slots.allSatisfy { $0.remaining == 0 } ? " disabled" : ""))>Place order</button>
                </form>
                """)
    }
}
