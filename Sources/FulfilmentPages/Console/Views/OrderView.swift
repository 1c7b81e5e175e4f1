import Foundation
import FulfilmentDomain

/// One order as staff read it (issues 44 and 46): what it holds and what each line costs now
/// against checkout (picked short, substituted, refused, removed), the money in and out with
/// what is owed back (a manager records the refund here), every message its customer was sent,
/// and its history, so a customer on the phone gets an answer from one page.
enum OrderView {
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, order: Order, messages: [MessageRecord], movements: [MoneyMovement]
    ) -> ConsolePage {
        let zone = order.pickupTimeZone ?? TimeText.zone
        let currency = order.total.currency
        let history = order.history.map { event -> HTML in
            "<li>\(TimeText.local(event.at, in: zone)): \(event.kind == .status ? BoardView.word(event.to) : event.kind.rawValue.replacingOccurrences(of: "_", with: " "))\(event.actorName.map { " by \($0)" } ?? "")\(event.reason.map { " (\($0))" } ?? "")</li>"
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
                <h1>Order \(order.number) <span class="status status-\(order.status.rawValue)">\(BoardView.word(order.status))</span></h1>
                \(notice.map { $0.render(id: "order-note") } ?? .empty)
                <dl class="facts">
                <dt>Customer</dt><dd>\(order.customerName)</dd>
                <dt>Placed</dt><dd>\(TimeText.local(order.createdAt, in: zone))</dd>
                \(order.pickupSlot.map { "<dt>Slot</dt><dd>\(SlotText.label($0, in: zone))</dd>" as HTML })
                <dt>Total</dt><dd id="order-total">\(MoneyText.format(order.total)) (\(paymentWords(order)))</dd>
                </dl>
                \(bagsSection(order))
                <h2>Lines</h2>
                \(linesTable(order, currency: currency))
                \(TaxReceiptView.summary(order, receiptPath: "/console/orders/\(order.id)/tax-receipt"))
                <h2>Money</h2>
                \(moneySection(order, movements: movements, zone: zone, session: session, csrf: csrf))
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

    /// The order's bags (issue 47): each with its zone and place, and its labels to print.
    static func bagsSection(_ order: Order) -> HTML {
        let bags = order.bags.bags
        guard !bags.isEmpty else { return .empty }
        let items = HTML.join(
            bags.map { bag in
                let place = bag.place.map { "in \($0.name)" } ?? (bag.handedOverAt != nil ? "handed over" : "not staged")
                return "<li>Bag \(bag.number) of \(bags.count): \(bag.zone.rawValue), \(place) (code \(bag.code))</li>"
            })
        return """
            <h2>Bags</h2>
            <ul id="order-bags">\(items)</ul>
            <p>Print labels: <a href="/console/orders/\(order.id)/labels?size=80mm" id="labels-80mm">80 mm roll</a> · \
            <a href="/console/orders/\(order.id)/labels?size=a4" id="labels-a4">A4 sheet</a></p>
            """
    }

    static func paymentWords(_ order: Order) -> String {
        let method = order.paymentMethod == .prepaid ? "paid online" : "pays at the desk"
        switch order.paymentStatus {
        case .unpaid: return "not paid yet; \(method)"
        case .paid: return "paid"
        case .refundDue: return "paid; \(MoneyText.format(order.refundDueAmount, order.total.currency)) to pay back"
        case .refunded: return "paid, and paid back what was owed"
        }
    }

    /// Each line: what was ordered and what it holds now, its price at checkout (after its share
    /// of a coupon) and now, and why they differ. The differences are what a refund pays back.
    static func linesTable(_ order: Order, currency: String) -> HTML {
        let names = Dictionary(order.lines.map { ($0.productID, $0.name) }, uniquingKeysWith: { first, _ in first })
        let rows = order.lines.enumerated().map { index, line -> HTML in
            let ordered = line.substitute == nil ? line.quantity &+ line.substitutedQuantity : 0
            let atCheckout = LineRefunds.paidAtCheckout(line)
            let change = line.amount &- atCheckout
            return """
                <tr id="line-\(index + 1)">
                <td data-label="Item">\(line.name)</td>
                <td data-label="Ordered">\(ordered)</td>
                <td data-label="Holds">\(line.held)</td>
                <td data-label="At checkout" class="amount">\(MoneyText.format(atCheckout, currency))</td>
                <td data-label="Now" class="amount">\(MoneyText.format(line.amount, currency))</td>
                <td data-label="Change" class="amount">\(change == 0 ? "—" : MoneyText.format(change, currency))</td>
                <td data-label="Why">\(why(line, names: names))</td>
                <td data-label="Paid back" class="amount">\(line.refunded == 0 ? "—" : MoneyText.format(line.refunded, currency))</td>
                </tr>
                """
        }
        return """
            <table id="order-lines" class="cards">
            <thead><tr><th scope="col">Item</th><th scope="col">Ordered</th><th scope="col">Holds</th><th scope="col">At checkout</th><th scope="col">Now</th><th scope="col">Change</th><th scope="col">Why</th><th scope="col">Paid back</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody>
            <tfoot><tr><th scope="row" colspan="4">Total now\(order.discount > 0 ? " (after \(MoneyText.format(order.discount, currency)) off)" : "")</th>
            <td class="amount">\(MoneyText.format(order.total))</td><td colspan="3"></td></tr></tfoot>
            </table>
            """
    }

    /// Why a line costs what it does now, in the words the desk would say.
    static func why(_ line: OrderLine, names: [ProductID: String]) -> String {
        var words: [String] = []
        if let substitute = line.substitute {
            let original = names[substitute.replaces] ?? "another item"
            switch substitute.status {
            case .proposed: words.append("Substitute for \(original): waiting for the customer")
            case .accepted: words.append("Substitute for \(original): accepted")
            case .rejected: words.append("Substitute for \(original): refused, not charged")
            }
        }
        if line.substitutedQuantity > 0 { words.append("\(line.substitutedQuantity) replaced by a substitute") }
        if line.removed { words.append("Removed at the desk") }
        if line.pickedShort, line.held < line.quantity { words.append("Picked short: \(line.held) of \(line.quantity)") }
        return words.joined(separator: "; ")
    }

    /// The payment and refunds, what is owed back, and (for a manager) the refund form.
    static func moneySection(_ order: Order, movements: [MoneyMovement], zone: TimeZone?, session: ConsoleSession, csrf: HTML) -> HTML {
        let rows = movements.map { movement -> HTML in
            let what = movement.kind == .payment ? "Payment (\(method(movement.method)))" : "Refund (\(method(movement.method)))"
            return """
                <tr class="\(movement.kind.rawValue)"><td data-label="What">\(what)</td>
                <td data-label="Amount" class="amount">\(MoneyText.format(movement.amount))</td>
                <td data-label="By">\(movement.recordedBy ?? "the payment provider")</td>
                <td data-label="When">\(TimeText.local(movement.at, in: zone))</td>
                <td data-label="Note">\(movement.note ?? "")</td></tr>
                """
        }
        let table: HTML =
            movements.isEmpty
            ? "<p id=\"no-payments\">No money taken yet.</p>"
            : """
            <table id="order-payments" class="cards">
            <thead><tr><th scope="col">What</th><th scope="col">Amount</th><th scope="col">By</th><th scope="col">When</th><th scope="col">Note</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
        guard order.paymentStatus == .refundDue else { return table }
        let due = MoneyText.format(order.refundDueAmount, order.total.currency)
        let form: HTML =
            session.identity.role == .manager
            ? """
            <form method="post" action="/console/orders/\(order.id)/refunds" class="fields" id="refund-form">\(csrf)
            <input type="hidden" name="amount" value="\(order.refundDueAmount)"><input type="hidden" name="currency" value="\(order.total.currency)">
            <p class="field wide"><label for="refund-note">Note (optional)</label>
            <input id="refund-note" name="note" maxlength="500" placeholder="Cash from the till"></p>
            <p><button type="submit" id="record-refund">I paid back \(due)</button></p>
            </form>
            \(lineRefundForm(order, csrf: csrf))
            """
            : "<p class=\"hint\">A manager records the refund when it is paid back.</p>"
        return """
            \(table)
            <p id="refund-due"><strong>To pay back: \(due)</strong>, the lines' changes since checkout.</p>
            \(form)
            """
    }

    /// Refunds by line (issue 46): a box for each line that may still give something back, with
    /// how much (`LineRefunds`), so a manager pays back one short-picked or removed line now and
    /// the rest later. The amounts ride in the form as the page showed them; `Refunds` checks
    /// each against its line again under the order's lock.
    static func lineRefundForm(_ order: Order, csrf: HTML) -> HTML {
        let owing = LineRefunds(order).owing
        guard !owing.isEmpty else { return .empty }
        let names = Dictionary(order.lines.map { ($0.productID, $0.name) }, uniquingKeysWith: { first, _ in first })
        let boxes = owing.enumerated().map { index, line -> HTML in
            """
            <p class="field check"><input type="checkbox" id="refund-line-\(index + 1)" name="line-\(line.productID)" value="\(line.amount)">
            <label for="refund-line-\(index + 1)">\(names[line.productID] ?? "A line"): \(MoneyText.format(line.amount, order.total.currency))</label></p>
            """
        }
        return """
            <form method="post" action="/console/orders/\(order.id)/refunds" class="fields" id="refund-lines-form">\(csrf)
            <input type="hidden" name="by" value="lines"><input type="hidden" name="currency" value="\(order.total.currency)">
            <fieldset><legend>Or pay back some lines now</legend>
            \(HTML.join(boxes))
            <p class="field wide"><label for="refund-lines-note">Note (optional)</label>
            <input id="refund-lines-note" name="note" maxlength="500" placeholder="Cash from the till"></p>
            <p><button type="submit" id="record-line-refund">I paid back the ticked lines</button></p>
            </fieldset>
            </form>
            """
    }

    private static func method(_ method: String) -> String {
        switch method {
        case "card": "card at the desk"
        case "cash": "cash at the desk"
        case "desk": "at the desk"
        case "provider": "online"
        default: method
        }
    }
}
