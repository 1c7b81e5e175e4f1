import Foundation
import FulfilmentDomain

/// Moving an order to another pickup time, shown by `GET /orders/{orderId}/slot` and by a
/// refused `POST` of it (`changePickupSlot`): the time it has now, the store's times a day at a
/// time (``SlotChooserView``), and "Move my order". The new time gets a new code; the page says so.
enum OrderSlotView {
    static func page(
        frame: ShopPageView.Frame, order: Order, storeName: String, slots: [PickupSlots.Availability], zone: TimeZone, chosen: Date?,
        day: LocalDate?
    ) -> ConsolePage {
        let now: HTML = order.pickupSlot.map { "<p id=\"slot-now\">Now: <strong>\(SlotText.label($0, in: zone))</strong></p>" } ?? .empty
        let chooser: HTML =
            slots.isEmpty
            ? "<p class=\"notice notice-refused\" id=\"no-slots\">No other pickup times are open in the coming week.</p>"
            : SlotChooserView.chooser(
                slots: slots, zone: zone, storeName: storeName, chosen: chosen, day: day,
                dayLink: { "/orders/\(order.id)/slot?day=\($0.description)" })
        return ShopPageView.page(
            "Change the pickup time of order \(order.number)", frame: frame,
            body: """
                <h1>Change the pickup time of order \(order.number)</h1>
                \(now)
                <form method="post" action="/orders/\(order.id)/slot" id="slot-form">
                \(ConsolePage.csrfInput(frame.session))
                \(chooser)
                <p class="hint">Your order gets a new code for the new time; the one you have stops working.</p>
                <button type="submit" class="big" id="move-order"\(HTML(trusted: slots.isEmpty ? " disabled" : ""))>Move my order</button>
                </form>
                <p><a href="/orders/\(order.id)">Keep the time I have</a></p>
                """)
    }
}
