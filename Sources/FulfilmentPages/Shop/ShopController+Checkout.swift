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
        // A visitor is asked to sign in (their cart comes with them) and brought back here.
        router.get("/shop/checkout") { request, context in
            try await shopPage(request, context, operation: "checkout") { visit in
                try await checkoutPage(visit, place: try await shopPlace(visit))
            }
        }
        router.post("/shop/checkout") { request, context in
            try await page(request, context, operation: "checkout") { page in
                let visit = ShopVisit(page)
                // Kept for the page drawn again after a refusal, so the customer's choice stays theirs.
                let chosen = (try? Self.pickupSlot(visit.form)) ?? nil
                do {
                    let slot = try Self.pickupSlot(visit.form)
                    let result = try await services.checkout.run(
                        caller: .resolved(page.identity), method: .payAtCollection, pickupSlot: slot, now: services.clock(),
                        idempotencyKey: visit.form.text("attempt"), logger: visit.logger)
                    if result.created { ServiceMetrics.checkoutPlaced() }
                    return ConsolePage.redirect("/orders/\(result.order.id)?notice=placed")
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await checkoutPage(
                        visit, place: try await shopPlace(visit), chosen: chosen, notice: Notice(ok: false, text: refused.message),
                        status: refused.status)
                }
            }
        }
    }

    /// A pickup slot's start as the form carries it: seconds since 1970, up to the end of 9999.
    static let slotSeconds = 0...LocalDate.lastSecond

    /// The pickup time a checkout or a move chose (nil: none): its start in whole seconds,
    /// bounded to the years a calendar can name (the service then refuses anything its calendar
    /// did not offer); a typo is `invalid_field`.
    static func pickupSlot(_ form: ConsoleForm) throws -> Date? {
        try form.int("pickupSlot", label: "A pickup time", in: slotSeconds).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    private func checkoutPage(
        _ visit: ShopVisit, place: ShopPlace, chosen: Date? = nil, notice: Notice? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
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
        return ShopCheckoutView.page(
            frame: shopFrame(visit, place: place, notice: notice), store: store, cart: place.cart, itemCount: place.itemCount, slots: slots,
            zone: zone, hasCalendar: hasCalendar, attempt: UUID().uuidString, chosen: chosen,
            day: Self.query(visit.request)["day"].flatMap(LocalDate.init)
        ).response(status: status)
    }
}
