import Foundation
import FulfilmentDomain

/// The order board, shown by `GET /console/orders` and after a move on it
/// (`POST /console/orders/{id}/transitions`): who is waiting at the kerb (``DeskView/arrivalsSection(_:now:csrf:)``
/// with "Bring out"), then the open orders by status, grouped by pickup slot, with their moves.
enum BoardView {
    /// `orders` are the store's open orders; times are shown in `zone`, the store's.
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, orders items: [OrderSummary], zone: TimeZone?, now: Date) -> ConsolePage {
        let sections = HTML.join(
            [OrderStatus.pending, .packaged, .delivering].map { status in
                let orders = Self.bySlot(items.filter { $0.status == status })
                var rows: [HTML] = []
                for (index, order) in orders.enumerated() {
                    if index == 0 || orders[index - 1].pickupSlot != order.pickupSlot {
                        let count = orders.filter { $0.pickupSlot == order.pickupSlot }.count
                        let title = order.pickupSlot.map { "Slot \(SlotText.label($0, in: zone))" } ?? "No slot"
                        rows.append(
                            """
                            <tr class="slot-group"><th colspan="8" scope="rowgroup">\(title) <span class="hint">(\(count))</span></th></tr>
                            """)
                    }
                    rows.append(boardRow(order, zone: zone, now: now, csrf: csrf))
                }
                let table: HTML =
                    orders.isEmpty
                    ? "<p class=\"hint\">None.</p>"
                    : """
                    <table class="cards compact"><thead><tr><th>Order</th><th>Slot</th><th>Age</th><th>Customer</th><th>Items</th><th>Payment</th><th>Total</th><th>Actions</th></tr></thead>
                    <tbody>\(HTML.join(rows))</tbody></table>
                    """
                return """
                    <section class="board-group" id="board-\(status.rawValue)">
                    <h2>\(Self.heading(status)) <span class="hint">(\(orders.count))</span></h2>
                    \(table)
                    </section>
                    """
            })
        let noticeHTML = notice.map { $0.render(id: "board-note") } ?? .empty
        return ConsolePage(
            title: "Orders", session: session,
            body: """
                <h1>Open orders</h1>
                <p class="hint">Soonest ready-by time first (when an order must be packed for its slot); orders at risk of not being ready in time are amber, late ones red. Times are on the store's clock (\(Self.zoneName(zone))). This page updates itself as orders change.</p>
                \(OrderSearchView.box(""))
                \(noticeHTML)
                <div id="board-live">
                \(DeskView.arrivalsSection(items, now: now, csrf: csrf))
                \(sections)
                </div>
                """,
            scripts: ["board.js"]
        )
    }

    /// The store's zone as the page names it: `America/Jamaica`, or UTC.
    static func zoneName(_ zone: TimeZone?) -> String { zone?.identifier ?? "UTC" }

    /// A status as the people at the store say it (issue 46: the board showed "pending").
    static func word(_ status: OrderStatus) -> String {
        switch status {
        case .pending: "To pick"
        case .packaged: "Packed"
        case .delivering: "At the desk"
        case .completed: "Collected"
        case .cancelled: "Cancelled"
        }
    }

    static func heading(_ status: OrderStatus) -> String {
        switch status {
        case .pending: "To pick"
        case .packaged: "Packed, waiting to go to the desk"
        case .delivering: "At the desk, waiting for the customer"
        case .completed: "Collected"
        case .cancelled: "Cancelled"
        }
    }

    /// What needs someone on this order: a substitute the customer has not answered (call
    /// them, or wait before packing), lines picked short (tell the customer; check the shelf).
    static func flags(_ order: OrderSummary) -> HTML {
        var flags: [HTML] = []
        if order.openSubstitutions > 0 {
            let what = order.openSubstitutions == 1 ? "a substitute" : "\(order.openSubstitutions) substitutes"
            flags.append("<span class=\"flag\" id=\"flag-substitution-\(order.number)\">Waiting for the customer to answer \(what)</span>")
        }
        if order.shortLines > 0 {
            let what = order.shortLines == 1 ? "1 line" : "\(order.shortLines) lines"
            flags.append("<span class=\"flag\" id=\"flag-short-\(order.number)\">Short: \(what)</span>")
        }
        return flags.isEmpty ? .empty : " \(HTML.join(flags, separator: " "))"
    }

    /// The board's order: by ready-by time (issue 47: when it must be packed, its slot's start
    /// less the store's ready lead, so slot by slot), orders without a slot last, then oldest first.
    static func bySlot(_ orders: [OrderSummary]) -> [OrderSummary] {
        orders.sorted { a, b in
            switch (a.timeliness?.readyBy ?? a.pickupSlot?.start, b.timeliness?.readyBy ?? b.pickupSlot?.start) {
            case (let x?, let y?) where x != y: x < y
            case (.some, nil): true
            case (nil, .some): false
            default: (a.createdAt, a.number) < (b.createdAt, b.number)
            }
        }
    }

    private static func boardRow(_ order: OrderSummary, zone: TimeZone?, now: Date, csrf: HTML) -> HTML {
        let moves = HTML.join(
            order.status.manualTargets.map { target in
                let label =
                    switch target {
                    case .packaged: "Pack"
                    case .delivering: "Send to desk"
                    case .cancelled: "Cancel"
                    default: target.rawValue
                    }
                let reason: HTML =
                    target == .cancelled
                    ? "<input name=\"reason\" placeholder=\"Reason\" aria-label=\"Reason for cancelling order \(order.number)\">" : .empty
                return """
                    <form method="post" action="/console/orders/\(order.id)/transitions">
                    \(csrf)<input type="hidden" name="to" value="\(target.rawValue)">\(reason)
                    <button type="submit" class="\(target == .cancelled ? "danger" : "")" id="\(target.rawValue)-\(order.number)">\(label)</button>
                    </form>
                    """
            })
        // "Ready" again, for a customer at the door who lost the message (at most once a minute).
        let resend: HTML =
            order.status == .packaged || order.status == .delivering
            ? """
            <form method="post" action="/console/orders/\(order.id)/ready-message">\(csrf)
            <button type="submit" class="secondary" id="resend-ready-\(order.number)">Ready message again</button></form>
            """ : .empty
        return """
            <tr id="order-\(order.number)">
            <td><a href="/console/orders/\(order.id)"><strong>\(order.number)</strong></a> <span class="status status-\(order.status.rawValue)">\(Self.word(order.status))</span>\(Self.flags(order))\(Self.readiness(order, zone: zone, now: now))</td>
            <td class="slot" data-label="Slot">\(slotCell(order, zone: zone, now: now))</td>
            <td data-label="Age">\(TimeText.age(since: order.createdAt))</td>
            <td data-label="Customer">\(order.customerName)</td>
            <td data-label="Items">\(order.itemCount)</td>
            <td data-label="Payment">\(order.paymentStatus.rawValue) · \(order.paymentMethod == .prepaid ? "prepaid" : "at desk")</td>
            <td data-label="Total">\(MoneyText.format(order.total))</td>
            <td class="board-actions">\(moves)\(resend)</td>
            </tr>
            """
    }

    /// Whether an unpacked order will be ready on time (issue 47), in words as well as colour:
    /// amber "At risk: ready by 14:45", red "Late by 12 min"; nothing when it is on track or
    /// packed. The time is on the store's clock, which the page's heading names.
    static func readiness(_ order: OrderSummary, zone: TimeZone?, now: Date) -> HTML {
        guard let timeliness = order.timeliness else { return .empty }
        switch timeliness.status {
        case .onTrack:
            return .empty
        case .atRisk:
            let time = SlotText.time(timeliness.readyBy, zone ?? TimeZone(identifier: "UTC")!)
            return " <span class=\"readiness at-risk\" id=\"at-risk-\(order.number)\">At risk: ready by \(time)</span>"
        case .late:
            let minutes = max(1, Int(now.timeIntervalSince(timeliness.readyBy) / 60))
            let late = minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
            return " <span class=\"readiness late-risk\" id=\"late-by-\(order.number)\">Late by \(late)</span>"
        }
    }

    private static func slotCell(_ order: OrderSummary, zone: TimeZone?, now: Date) -> HTML {
        guard let slot = order.pickupSlot else { return "—" }
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let times = "\(SlotText.time(slot.start, zone))–\(SlotText.time(slot.end, zone))"
        let late: HTML =
            SlotText.isLate(slot, now: now)
            ? " <span class=\"status status-cancelled late\" id=\"late-\(order.number)\">Late</span>" : .empty
        return "\(times)\(late)"
    }
}
