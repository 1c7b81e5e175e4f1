import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Checking out in the shop: `/shop/checkout` shows the cart's total and the store's pickup
/// slots for the coming days (`listPickupSlots`; a full slot is shown, marked full, and cannot be
/// chosen), and its form places the order (`checkout`). The form carries a fresh
/// idempotency key made when the page is drawn, so a double click, a resent form or a reload of
/// the answer sends the same key and gets the same order, never a second; a new attempt (the
/// page drawn again after a refusal) gets a new key.
extension ShopController {
    func registerShopCheckout(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/checkout") { request, context in
            try await page(request, context, operation: "checkout") { visit in
                try await checkoutPage(visit, place: try await shopPlace(visit))
            }
        }
        router.post("/shop/checkout") { request, context in
            try await page(request, context, operation: "checkout") { visit in
                do {
                    // The slot's start in whole seconds, bounded to the years a calendar can name (the
                    // service then refuses anything its calendar did not offer).
                    let slot = try visit.form.int("pickupSlot", label: "A pickup time", in: Self.slotSeconds)
                        .map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    let result = try await services.checkout.run(
                        caller: .resolved(visit.identity), method: .payAtCollection, pickupSlot: slot, now: services.clock(),
                        idempotencyKey: visit.form.text("attempt"), logger: visit.logger)
                    if result.created { ServiceMetrics.checkoutPlaced() }
                    return ConsolePage.redirect("/orders/\(result.order.id)?notice=placed")
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await checkoutPage(
                        visit, place: try await shopPlace(visit), notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
    }

    /// A pickup slot's start as the form carries it: seconds since 1970, up to the end of 9999.
    static let slotSeconds = 0...LocalDate.lastSecond

    private func checkoutPage(_ visit: PageVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
        guard !place.cart.lines.isEmpty else { return ConsolePage.redirect("/shop/cart") }
        var slots: [PickupSlots.Availability] = []
        var zone: TimeZone?
        var hasCalendar = true
        do {
            let (calendar, available) = try await services.pickupSlots.available(
                store: store.id, from: nil, days: 7, now: services.clock(), logger: visit.logger)
            (slots, zone) = (available, calendar.timeZone)
        } catch SlotError.calendarNotFound {
            hasCalendar = false
        }
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
        let cart = place.cart
        return shopPage(
            "Check out", visit, place: place, notice: notice, status: status,
            body: """
                <h1>Choose a pickup time</h1>
                <p>\(cart.lines.count == 1 ? "1 product" : "\(cart.lines.count) products"), \(place.itemCount) items: total <strong id="checkout-total">\(MoneyText.format(cart.total, cart.currency))</strong>. <a href="/shop/cart">Change the cart</a></p>
                <form method="post" action="/shop/checkout" id="checkout-form">
                \(ConsolePage.csrfInput(visit.session))
                <input type="hidden" name="attempt" value="\(UUID().uuidString)">
                \(chooser)
                <p>You pay at the desk when you collect.</p>
                <button type="submit" class="big" id="place-order"\(HTML(trusted: hasCalendar && slots.allSatisfy { $0.remaining == 0 } ? " disabled" : ""))>Place order</button>
                </form>
                """)
    }
}
