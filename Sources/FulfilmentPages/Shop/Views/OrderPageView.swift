import Foundation
import FulfilmentDomain
import QRReceipt

/// A customer's order, shown by `GET /orders/{orderId}` and by a refused form of it ("I'm here",
/// a substitution's answer, buy again): the progress tracker, "I'm here" (or that the store
/// knows), the QR receipt while the order is open — large enough to scan off a phone, the order
/// number and the token as text under it — then the lines as the store left them, the totals
/// they add up to, and what the customer may still do. All of it is drawn again live.
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
                <p class="short-code">Code <strong id="receipt-short-code">\(PickupShortCode.printed(PickupShortCode.of(pickup.text)))</strong></p>
                <p class="hint" id="receipt-fallback">If the QR will not scan, read the desk these twelve letters, or tell them your order number, <strong>\(order.number)</strong>, and your surname.</p>
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
        return ShopPageView.page(
            "Order \(order.number)", frame: frame,
            body: """
                <section id="order-live" data-events="/orders/\(order.id)/events" aria-live="polite">
                <h1>Order \(order.number) <span class="status status-\(order.status.rawValue)" id="order-status">\(Self.trackerLabel(order.status))</span></h1>
                <ol class="tracker" id="tracker" aria-label="Progress">\(tracker)</ol>
                \(running(order, zone: zone))
                \(arrival)
                \(receipt)
                \(lines(order, session: frame.session))
                \(actions(order, session: frame.session))
                </section>
                <p><a href="/orders">All my orders</a> · <a href="/shop">Back to the shop</a></p>
                """)
    }

    /// An order that will not be ready in time (issue 47, what `order.late`'s message links to):
    /// when the store now expects it ready, on its clock, and the three ways on: keep it (do
    /// nothing), choose another time, or cancel for all that was paid back (both below).
    static func running(_ order: Order, zone: TimeZone?) -> HTML {
        guard let timeliness = order.timeliness, timeliness.status == .late, order.status == .pending else { return .empty }
        let when = timeliness.expectedReady.map { " We now expect it ready about \(TimeText.local($0, in: zone))." } ?? ""
        return """
            <p class="notice notice-refused" id="running-late">Sorry, your order is running late.\(when) You may keep it and collect it then, \
            <a href="/orders/\(order.id)/slot">choose another pickup time</a>, or <a href="/orders/\(order.id)/cancel">cancel it</a> and get all you paid back.</p>
            """
    }

    /// Each line as the store left it: what it holds and costs now, and what happened to it
    /// (picked, short with the count, substituted by, a substitute to decide or decided, removed
    /// for no ID); then the totals, which are the lines added up.
    static func lines(_ order: Order, session: ConsoleSession?) -> HTML {
        let currency = order.total.currency
        let packed = order.packagedAt != nil
        let open = order.status.isOpen
        let rows = HTML.join(
            order.lines.map { line -> HTML in
                var note: HTML = .empty
                var name: HTML = "\(line.name)"
                if line.removed {
                    name = "<s>\(line.name)</s>"
                    note = "Removed at the desk: no ID was shown. Not charged."
                } else if let substitute = line.substitute {
                    let instead = order.lines.first { $0.productID == substitute.replaces && $0.substitute == nil }?.name ?? "another product"
                    switch substitute.status {
                    case .proposed:
                        note = "Instead of \(instead): the store suggests this. Keep it or refuse it."
                        if open {
                            note = """
                                \(note)
                                <span class="order-actions" id="decide-\(substitute.id)">\(decision(order, substitute.id, "accept", "Keep it", session))\(decision(order, substitute.id, "reject", "Refuse it", session))</span>
                                """
                        }
                    case .accepted: note = "Instead of \(instead): you kept it."
                    case .rejected:
                        name = "<s>\(line.name)</s>"
                        note = "Instead of \(instead): you refused it. Not charged."
                    }
                } else if line.quantity == 0, line.substitutedQuantity > 0 {
                    name = "<s>\(line.name)</s>"
                    note = "Out of stock: \(substitutes(of: line, in: order)) instead (below)."
                } else if packed, line.pickedShort {
                    note = line.held == 0 ? "Out of stock: none picked. Not charged." : "Short: \(line.held) of \(line.quantity) picked."
                    if line.held == 0 { name = "<s>\(line.name)</s>" }
                } else if packed {
                    note =
                        line.substitutedQuantity > 0
                        ? "Picked; \(line.substitutedQuantity) replaced by \(substitutes(of: line, in: order))." : "Picked."
                }
                if order.changeable, !line.removed, line.substitute == nil, line.quantity > 0 {
                    note = "\(note)\(change(order, line, session))"
                }
                let noteHTML: HTML = note == .empty ? .empty : "<span class=\"line-note\">\(note)</span>"
                return """
                    <tr id="line-\(line.productID)"><td>\(line.held) ×</td><td>\(name)\(noteHTML)</td><td>\(MoneyText.format(line.amount, currency))</td></tr>
                    """
            })
        let subtotal = Money.sum(order.lines.map { Money.lineTotal(unitPrice: $0.unitPrice, quantity: $0.held) }) ?? 0
        var totals: [HTML] = []
        if order.discount > 0 {
            totals.append(
                "<p id=\"discount\">Subtotal \(MoneyText.format(subtotal, currency)) · coupon −\(MoneyText.format(order.discount, currency))</p>")
        }
        let payment: String =
            switch (order.status, order.paymentStatus.isSettled) {
            case (.cancelled, false): "cancelled: nothing to pay"
            case (.cancelled, true): "cancelled"
            case (_, true): "paid"
            case (.completed, false): "collected"
            default: "to pay at the desk"
            }
        totals.append("<p id=\"order-total\">Total <strong>\(MoneyText.format(order.total))</strong> · \(payment)</p>")
        totals.append(TaxReceiptView.summary(order, receiptPath: "/orders/\(order.id)/tax-receipt"))
        if order.refundDueAmount > 0 {
            totals.append(
                "<p id=\"refund-due\">We owe you <strong>\(MoneyText.format(order.refundDueAmount, currency))</strong> back, for what you paid and did not get.</p>"
            )
        }
        return """
            <table class="lines" id="order-lines"><caption class="visually-hidden">What you ordered</caption><tbody>\(rows)</tbody></table>
            \(HTML.join(totals))
            """
    }

    /// Until the cut-off (issue 48: pending, on no pick list), a line's quantity set again or the
    /// line removed, each a form that posts and comes back (`changeOrderLines`), no script needed.
    private static func change(_ order: Order, _ line: OrderLine, _ session: ConsoleSession?) -> HTML {
        let id = line.productID
        return """
            <span class="order-actions line-change" id="change-\(id)"><form method="post" action="/orders/\(order.id)/lines/\(id)" class="inline-form">\(ConsolePage.csrfInput(session))<label for="qty-\(id)">Quantity</label> <input id="qty-\(id)" name="quantity" type="number" inputmode="numeric" min="0" max="\(Cart.maximumQuantity)" value="\(line.quantity)" class="qty"> <button type="submit" class="secondary" aria-label="Change the quantity of \(line.name)">Change</button></form><form method="post" action="/orders/\(order.id)/lines/\(id)" class="inline-form">\(ConsolePage.csrfInput(session))<input type="hidden" name="quantity" value="0"><button type="submit" class="secondary" id="remove-\(id)" aria-label="Remove \(line.name)">Remove</button></form></span>
            """
    }

    /// "Ackee 540g": the substitutes given for `line`.
    private static func substitutes(of line: OrderLine, in order: Order) -> String {
        let names = order.lines.filter { $0.substitute?.replaces == line.productID }.map(\.name)
        return names.isEmpty ? "another product" : names.joined(separator: ", ")
    }

    /// A button that sends the customer's answer to a proposed substitute (`decideSubstitution`).
    private static func decision(_ order: Order, _ id: SubstitutionID, _ answer: String, _ label: String, _ session: ConsoleSession?) -> HTML {
        """
        <form method="post" action="/orders/\(order.id)/substitutions/\(id)"><input type="hidden" name="decision" value="\(answer)">\(ConsolePage.csrfInput(session))<button type="submit" id="\(answer)-\(id)">\(label)</button></form>
        """
    }

    /// What the customer may still do: change the pickup time (pending or packed, with a slot),
    /// cancel (pending), buy the same again.
    static func actions(_ order: Order, session: ConsoleSession?) -> HTML {
        var actions: [HTML] = []
        if order.pickupSlot != nil, order.status == .pending || order.status == .packaged {
            actions.append("<a class=\"button\" href=\"/orders/\(order.id)/slot\" id=\"change-slot\">Change the pickup time</a>")
        }
        if order.status == .pending {
            actions.append("<a class=\"button\" href=\"/orders/\(order.id)/cancel\" id=\"cancel-order\">Cancel the order</a>")
        }
        actions.append(
            """
            <form method="post" action="/orders/\(order.id)/buy-again">\(ConsolePage.csrfInput(session))<button type="submit" id="buy-again">Buy these again</button></form>
            """)
        return "<div class=\"order-actions\" id=\"order-actions\">\(HTML.join(actions))</div>"
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
