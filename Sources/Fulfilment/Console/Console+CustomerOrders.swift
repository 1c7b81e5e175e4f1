import Foundation
import Hummingbird
import QRReceipt

/// The customer's own pages: `/orders` (`listOrders`) and `/orders/{id}` (`getOrder`), the one
/// place the QR receipt is shown — large enough to scan off a phone, the order number under it.
extension Console {
    func registerCustomerOrders(on router: Router<AppRequestContext>) {
        router.get("/orders") { request, context in
            try await page(request, context, operation: "listOrders") { visit in
                let page = try await api.orders.list(customer: visit.identity.userID, limit: 100, cursor: nil, logger: visit.logger)
                let rows = HTML.join(
                    page.items.map { order in
                        """
                        <tr><td><a href="/orders/\(order.id)">Order \(order.number)</a></td>
                        <td data-label="Status"><span class="status status-\(order.status.rawValue)">\(Self.trackerLabel(order.status))</span>
                        <progress max="100" value="\(Int(order.status.progress * 100))" aria-label="Progress of order \(order.number)"></progress></td>
                        <td data-label="Items">\(order.itemCount)</td><td data-label="Total">\(MoneyText.format(order.total))</td>
                        <td data-label="Placed">\(TimeText.format(order.createdAt))</td></tr>
                        """
                    })
                let list: HTML =
                    page.items.isEmpty
                    ? "<p class=\"hint\">No orders yet.</p>"
                    : """
                    <table class="cards compact"><thead><tr><th>Order</th><th>Status</th><th>Items</th><th>Total</th><th>Placed</th></tr></thead>
                    <tbody>\(rows)</tbody></table>
                    """
                return ConsolePage(title: "My orders", session: visit.session, body: "<h1>My orders</h1>\(list)").response()
            }
        }
        router.get("/orders/:orderId") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                // `getOrder` shows staff of the store the order too; the receipt page is the customer's alone.
                let order = try await api.visibleOrder(orderID)
                guard order.customerID == visit.identity.userID else { throw OrderError.orderNotFound }
                let zone = try await api.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                return customerOrderPage(visit, order: order, zone: zone)
            }
        }
    }

    /// The order with its receipt; times in `zone`, the store's, as the customer's clock shows them.
    func customerOrderPage(_ visit: Visit, order: Order, zone: TimeZone?) -> Response {
        let steps: [OrderStatus] = [.pending, .packaged, .delivering, .completed]
        let tracker = HTML.join(
            steps.map { step in
                let done = order.status != .cancelled && step.progress <= order.status.progress
                return "<span class=\"\(done ? "done" : "")\">\(Self.trackerLabel(step))</span>"
            })
        var bringID: HTML = .empty
        if let check = order.idCheck, check.confirmation == nil {
            bringID = "<p class=\"id-check\" id=\"bring-id\">Bring ID: this order holds goods for customers aged \(check.minimumAge) or over.</p>"
        }
        var receipt: HTML = .empty
        if let pickup = order.pickup, order.status.isOpen, let png = try? QRCode.encode(pickup.text).png(scale: 10) {
            receipt = """
                <section class="receipt" id="receipt">
                <img id="receipt-qr" alt="Pickup code for order \(order.number)" src="data:image/png;base64,\(Data(png).base64EncodedString())">
                <p class="number">Order \(order.number)</p>
                \(bringID)
                <p class="hint">Show this code at the desk. It is valid until <span id="receipt-expiry">\(TimeText.local(pickup.expiresAt, in: zone))</span>.</p>
                </section>
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
        return ConsolePage(
            title: "Order \(order.number)", session: visit.session,
            body: """
                <h1>Order \(order.number) <span class="status status-\(order.status.rawValue)" id="order-status">\(order.status.rawValue)</span></h1>
                <div class="tracker" id="tracker">\(tracker)</div>
                \(receipt)
                <table class="lines"><tbody>\(lines)</tbody></table>
                \(discount)
                <p>Total <strong>\(MoneyText.format(order.total))</strong> · \(order.paymentStatus.isSettled ? "paid" : "to pay at the desk")</p>
                <p><a href="/orders">All my orders</a></p>
                """
        ).response()
    }

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
