import Foundation
import FulfilmentDomain

/// Checking out, shown by `GET /shop/checkout` and by a refused `POST /shop/checkout`: the cart's
/// total, the store's pickup slots for the coming days, a day at a time (``SlotChooserView``;
/// none when the store keeps no calendar), and "Place order".
enum ShopCheckoutView {
    /// `slots` are the store's for the coming days, in `zone`; `hasCalendar` false when the store
    /// takes orders at any time of its opening hours. `attempt` is the form's idempotency key;
    /// `chosen` the time the customer chose (kept after a refusal), `day` the day they looked at.
    static func page(
        frame: ShopPageView.Frame, store: StoreRecord, cart: Cart, itemCount: Int, slots: [PickupSlots.Availability], zone: TimeZone?,
        hasCalendar: Bool, attempt: String, chosen: Date?, day: LocalDate?
    ) -> ConsolePage {
        let chooser: HTML
        if !hasCalendar {
            chooser = "<p id=\"no-slots-needed\">Collect any time during \(store.name)'s opening hours.</p>"
        } else if slots.isEmpty {
            chooser = "<p class=\"notice notice-refused\" id=\"no-slots\">No pickup times are open in the coming week. Try again later.</p>"
        } else {
            chooser = SlotChooserView.chooser(
                slots: slots, zone: zone ?? TimeZone(identifier: "UTC")!, storeName: store.name, chosen: chosen, day: day,
                dayLink: { "/shop/checkout?day=\($0.description)" })
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
                <button type="submit" class="big" id="place-order"\(HTML(trusted: hasCalendar && slots.allSatisfy(\.isFull) ? " disabled" : ""))>Place order</button>
                </form>
                """)
    }
}
