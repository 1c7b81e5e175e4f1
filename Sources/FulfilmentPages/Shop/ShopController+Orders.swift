import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import QRReceipt

/// The customer's own pages: `/orders` (`listOrders`) and `/orders/{id}` (`getOrder`), the one
/// place the QR receipt is shown — large enough to scan off a phone, the order number and the
/// token as text under it. The order's progress tracker follows the order's own event stream
/// (`/orders/{id}/events`, `streamOrderEvents` on the cookie session), and "I'm here" tells the
/// store the customer has arrived (`recordArrival`).
extension ShopController {
    func registerCustomerOrders(on router: RouteCollection<AppRequestContext>) {
        router.get("/orders") { request, context in
            try await page(request, context, operation: "listOrders") { visit in
                let page = try await services.orders.list(customer: visit.identity.userID, limit: 100, cursor: nil, logger: visit.logger)
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
                let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                guard order.customerID == visit.identity.userID else { throw OrderError.orderNotFound }
                let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                return customerOrderPage(visit, order: order, zone: zone)
            }
        }
        router.get("/orders/:orderId/events") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "streamOrderEvents") { visit in
                let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                guard order.customerID == visit.identity.userID else { throw OrderError.orderNotFound }
                let after = try EventStream.lastEventID(request.headers[HTTPField.Name("Last-Event-ID")!]) ?? 0
                let lease = try await services.events.open(for: visit.identity, logger: visit.logger)
                let frames = services.events.body(.order(order.id, store: order.storeID), after: after, lease: lease, logger: visit.logger)
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                    body: ResponseBody(asyncSequence: frames.map { ByteBuffer(bytes: $0) }))
            }
        }
        router.post("/orders/:orderId/arrival") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "recordArrival") { visit in
                guard let id = OrderID(orderID) else { throw OrderError.orderNotFound }
                do {
                    _ = try await services.arrivals.arrive(
                        order: id, bay: visit.form["bay"], vehicle: visit.form["vehicle"], note: nil, customer: visit.identity.userID,
                        logger: visit.logger)
                    return ConsolePage.redirect("/orders/\(id)?notice=arrived")
                } catch {
                    let refused = try Self.clientRefusal(error)
                    let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                    let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                    return customerOrderPage(
                        visit, order: order, zone: zone, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
    }

    /// The order with its receipt; times in `zone`, the store's, as the customer's clock shows them.
    /// Everything that changes as the store works (`#order-live`) is drawn again when an event of
    /// the order arrives (`shop.js`).
    func customerOrderPage(
        _ visit: PageVisit, order: Order, zone: TimeZone?, notice: Notice? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
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
                \(ConsolePage.csrfInput(visit.session))
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
        return shopPage(
            "Order \(order.number)", visit, place: nil, notice: notice, status: status,
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
