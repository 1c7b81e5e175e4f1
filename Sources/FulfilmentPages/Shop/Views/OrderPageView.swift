import Foundation
import FulfilmentDomain
import QRReceipt

/// A customer's order, shown by `GET /orders/{orderId}` and by a refused "I'm here"
/// (`POST /orders/{orderId}/arrival`): the progress tracker, "I'm here" (or that the store knows),
/// the QR receipt while the order is open — large enough to scan off a phone, the order number
/// and the token as text under it — then the lines and the total.
enum OrderPageView {
    /// The order with its receipt; times in `zone`, the store's, as the customer's clock shows them.
    /// Everything that changes as the store works (`#order-live`) is drawn again when an event of
    /// the order arrives (`shop.js`).
    static func page(frame: ShopPageView.Frame, order: Order, zone: TimeZone?) -> ConsolePage {
        let steps: [OrderStatus] = [.pending, .packaged, .delivering, .completed]
        let tracker = HTML.join(
            steps.map { step in
                let done = order.status != .cancelled && step.progress <= order.status.progress
                let current = step == order.status
                return "<li class=\"\(done ? "done" : "")\"\(HTML(trusted: current ? " aria-current=\"step\"" : ""))>\(Self.trackerLabel(step))</li>"
            })
        var bringID: HTML = .empty
        if let check = order.idCheck, check.confirmation == nil {
            bringID = "<p class=\"id-check\" id=\"bring-id\">Bring ID: this order holds goods for customers aged \(check.minimumAge) or over.</p>"
        }
        var receipt: HTML = .empty
        if let pickup = order.pickup, order.status.isOpen, let png = try? QRCode.encode(pickup.text).png(scale: 10) {
            var slot: HTML = .empty
            if let pickupSlot = order.pickupSlot {
                slot = "<p id=\"receipt-slot\">Pickup: <strong>\(SlotText.label(pickupSlot, in: zone))</strong></p>"
            }
            receipt = """
                <section class="receipt" id="receipt">
                <img id="receipt-qr" alt="Pickup code for order \(order.number): \(pickup.text)" src="data:image/png;base64,\(Data(png).base64EncodedString())">
                <p class="number">Order \(order.number)</p>
                \(slot)
                \(bringID)
                <p class="hint">Show this code at the desk. It is valid until <span id="receipt-expiry">\(TimeText.local(pickup.expiresAt, in: zone))</span>.</p>
                <p class="token-text">The code as text, if the scanner cannot read it: <code id="receipt-token">\(pickup.text)</code></p>
                </section>
                """
        }
        var arrival: HTML = .empty
        if let arrived = order.arrival, order.status.isOpen {
            arrival = "<p class=\"notice notice-ok\" id=\"arrived\">The store knows you are here\(arrived.bay.map { " (bay \($0))" } ?? "").</p>"
        } else if order.status == .packaged || order.status == .delivering {
            arrival = """
                <form method="post" action="/orders/\(order.id)/arrival" class="fields" id="arrival-form">
                \(ConsolePage.csrfInput(frame.session))
                <span class="field"><label for="bay">Parking bay (if any)</label><input id="bay" name="bay" maxlength="20" class="count"></span>
                <span class="field"><label for="vehicle">Car (optional)</label><input id="vehicle" name="vehicle" maxlength="100"></span>
                <button type="submit" id="im-here">I'm here</button>
                </form>
                """
        }
        let lines = HTML.join(
            order.lines.map { line in
                "<tr><td>\(line.quantity) ×</td><td>\(line.name)</td><td>\(MoneyText.format(line.lineTotal, order.total.currency))</td></tr>"
            })
        // A coupon's discount (issue 26): the total is already after it.
        var discount: HTML = .empty
        if order.discount > 0 {
            discount = """
                <p id="discount">Subtotal \(MoneyText.format(order.subtotal)) · coupon −\(MoneyText.format(Money(amount: order.discount, currency: order.total.currency)))</p>
                """
        }
        return ShopPageView.page(
            "Order \(order.number)", frame: frame,
            body: """
                <section id="order-live" data-events="/orders/\(order.id)/events" aria-live="polite">
                <h1>Order \(order.number) <span class="status status-\(order.status.rawValue)" id="order-status">\(Self.trackerLabel(order.status))</span></h1>
                <ol class="tracker" id="tracker" aria-label="Progress">\(tracker)</ol>
                \(arrival)
                \(receipt)
                </section>
                <table class="lines"><tbody>\(lines)</tbody></table>
                \(discount)
                <p>Total <strong>\(MoneyText.format(order.total))</strong> · \(order.paymentStatus.isSettled ? "paid" : "to pay at the desk")</p>
                <p><a href="/orders">All my orders</a> · <a href="/shop">Back to the shop</a></p>
                """)
    }

    /// An order's status as the customer reads it (the tracker's steps, the orders' list).
    static func trackerLabel(_ status: OrderStatus) -> String {
        switch status {
        case .pending: "Placed"
        case .packaged: "Packed"
        case .delivering: "At the desk"
        case .completed: "Collected"
        case .cancelled: "Cancelled"
        }
    }
}
