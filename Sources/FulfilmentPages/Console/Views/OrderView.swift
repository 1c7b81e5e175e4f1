import Foundation
import FulfilmentDomain

/// One order as staff read it (issue 44): what it holds, where it is, what happened, and every
/// message its customer was sent, so "was I told?" has an answer at the desk.
enum OrderView {
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, order: Order, messages: [MessageRecord]) -> ConsolePage {
        let zone = order.pickupTimeZone
        let lines = order.lines.map { line -> HTML in
            "<tr><td>\(line.quantity) × \(line.name)\(line.removed ? " (removed)" : "")</td><td class=\"amount\">\(MoneyText.format(line.lineTotal, order.total.currency))</td></tr>"
        }
        let history = order.history.map { event -> HTML in
            "<li>\(TimeText.local(event.at, in: zone)): \(event.kind == .status ? event.to.rawValue : event.kind.rawValue.replacingOccurrences(of: "_", with: " "))\(event.actorName.map { " by \($0)" } ?? "")\(event.reason.map { " (\($0))" } ?? "")</li>"
        }
        let mail = messages.map { message -> HTML in
            """
            <tr id="message-\(message.id)"><td data-label="Message">\(message.kind.label)</td><td data-label="To" class="address">\(message.recipient)</td>
            <td data-label="Status">\(MailView.status(message))</td><td data-label="Written">\(TimeText.local(message.createdAt, in: zone))</td></tr>
            """
        }
        let canResend = order.status == .packaged || order.status == .delivering
        let resend: HTML =
            canResend
            ? """
            <form method="post" action="/console/orders/\(order.id)/ready-message" class="inline-form">\(csrf)
            <button type="submit" id="resend-ready">Send the ready message again</button></form>
            """ : .empty
        return ConsolePage(
            title: "Order \(order.number)", session: session,
            body: """
                <p><a href="/console/orders">← Orders</a></p>
                <h1>Order \(order.number) <span class="status status-\(order.status.rawValue)">\(order.status.rawValue)</span></h1>
                \(notice.map { $0.render(id: "order-note") } ?? .empty)
                <dl class="facts">
                <dt>Customer</dt><dd>\(order.customerName)</dd>
                \(order.pickupSlot.map { "<dt>Slot</dt><dd>\(SlotText.label($0, in: zone))</dd>" as HTML })
                <dt>Total</dt><dd>\(MoneyText.format(order.total)) (\(order.paymentStatus.rawValue.replacingOccurrences(of: "_", with: " ")))</dd>
                </dl>
                <table id="order-lines"><tbody>\(lines)</tbody></table>
                <h2>Messages to the customer</h2>
                \(mail.isEmpty ? "<p id=\"no-messages\">No message yet.</p>" as HTML : """
                <table id="order-messages" class="cards">
                <thead><tr><th scope="col">Message</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Written</th></tr></thead>
                <tbody>\(mail)</tbody></table>
                """)
                \(resend)
                <h2>History</h2>
                <ol id="order-history">\(history)</ol>
                """)
    }
}
