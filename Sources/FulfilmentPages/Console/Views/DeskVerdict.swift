import Foundation
import FulfilmentDomain

/// A scan's outcome as the desk shows it: a word and a colour (never colour alone), a
/// sentence, the order when it is known, and the actions the outcome allows. Shown on the desk's
/// page (``DeskView``) after a scan or a desk form (`POST /console/desk/scan`, `/payments`,
/// `/collections`, `/substitutions`, `/restricted-lines`).
struct DeskVerdict: Sendable {
    enum Tone: String, Sendable { case ok, warn, bad }

    /// The API's code for the outcome (`ready`, `payment_required`, `already_collected`...),
    /// or `handed_over` after a collection; set as `data-verdict` for tests and scripts.
    var code: String
    var word: String
    var tone: Tone
    var detail: String
    var order: Order?
    var totes: [String] = []
    var token: String?

    static func handedOver(_ order: Order) -> DeskVerdict {
        DeskVerdict(
            code: "handed_over", word: "Handed over", tone: .ok,
            detail: "Order \(order.number) is collected. Ready for the next customer.", order: order)
    }

    init(code: String, word: String, tone: Tone, detail: String, order: Order?, totes: [String] = [], token: String? = nil) {
        self.code = code
        self.word = word
        self.tone = tone
        self.detail = detail
        self.order = order
        self.totes = totes
        self.token = token
    }

    init(scan: DeskScan, token: String) {
        self.order = scan.order
        self.totes = scan.totes
        self.token = token
        switch scan.refusal {
        case nil:
            (code, word, tone, detail) = ("ready", "Ready", .ok, "Paid and packed: hand it over.")
        case .paymentRequired(let amount, let currency)?:
            (code, word, tone, detail) = ("payment_required", "Pay first", .warn, "Take \(MoneyText.format(amount, currency)) before handing over.")
        case .notReady(let status)?:
            (code, word, tone, detail) = ("not_ready", "Not ready", .warn, "The order is \(status.rawValue): it has not been packed yet.")
        case .alreadyCollected(let at, let by)?:
            (code, word, tone, detail) = ("already_collected", "Already collected", .bad, "Collected \(TimeText.format(at)) by \(by).")
        case .orderCancelled?:
            (code, word, tone, detail) = ("order_cancelled", "Cancelled", .bad, "This order was cancelled: nothing to hand over.")
        case .tokenExpired(let at)?:
            (code, word, tone, detail) = ("token_expired", "Expired", .bad, "This code expired \(TimeText.format(at)).")
        case .wrongStore?:
            (code, word, tone, detail) = ("wrong_store", "Wrong store", .bad, "This order is collected at another store.")
        case .invalidToken?:
            (code, word, tone, detail) = ("invalid_token", "Invalid code", .bad, "This is not a valid pickup code.")
        case let other?:
            (code, word, tone, detail) = (other.apiError.code, "Refused", .bad, other.apiError.message)
        }
    }

    func render(csrf: HTML) -> HTML {
        """
        <section class="verdict \(tone.rawValue)" id="verdict" data-verdict="\(code)" \(liveAttributes) role="status">
        <p class="verdict-word">\(word)</p>
        <p class="verdict-detail" id="verdict-detail">\(detail)</p>
        \(order.map(facts) ?? .empty)
        \(actions(csrf: csrf))
        </section>
        """
    }

    /// A scanned order's id and code, so the desk's script can check it again when the order
    /// changes (packed, paid online) while the customer waits. Not after the hand-over.
    private var liveAttributes: HTML {
        guard code != "handed_over", let order, let token else { return .empty }
        return "data-order-id=\"\(order.id.description)\" data-token=\"\(token)\""
    }

    private func facts(_ order: Order) -> HTML {
        let rows = HTML.join(
            order.lines.map { line in
                let age: HTML = line.minimumAge.map { " <span class=\"status status-pending\">\($0)+</span>" } ?? .empty
                if line.removed {
                    return "<tr class=\"removed\"><td>\(line.quantity) ×</td><td><s>\(line.name)</s>\(age) removed (no ID)</td><td>—</td></tr>"
                }
                if let substitute = line.substitute {
                    let instead = order.lines.first { $0.productID == substitute.replaces && $0.substitute == nil }?.name ?? "another line"
                    let state: HTML =
                        switch substitute.status {
                        case .proposed: " <span class=\"status status-pending\">substitute: ask the customer</span>"
                        case .accepted: " <span class=\"status status-packaged\">substitute accepted</span>"
                        case .rejected: " <span class=\"status status-cancelled\">substitute rejected</span>"
                        }
                    let name: HTML = line.isRejected ? "<s>\(line.name)</s>" : "\(line.name)"
                    return """
                        <tr class="substitute" id="substitute-\(substitute.id)"><td>\(line.quantity) ×</td><td>\(name) (instead of \(instead))\(age)\(state)</td>\
                        <td>\(line.isRejected ? "—" : MoneyText.format(line.amount, order.total.currency))</td></tr>
                        """
                }
                if line.held == 0 { return .empty }
                return
                    "<tr><td>\(line.held) ×</td><td>\(line.name)\(age)</td><td>\(MoneyText.format(line.amount, order.total.currency))</td></tr>"
            })
        var idNotice: HTML = .empty
        if let check = order.idCheck {
            if let confirmation = check.confirmation {
                idNotice =
                    "<p class=\"hint\" id=\"id-confirmed\">ID (\(check.minimumAge)+) confirmed by \(confirmation.confirmedByName), \(confirmation.method.rawValue), \(TimeText.format(confirmation.confirmedAt)).</p>"
            } else if order.status.isOpen {
                idNotice =
                    "<p class=\"id-check\" id=\"id-check\">ID CHECK: this order holds goods for customers aged \(check.minimumAge) or over.</p>"
            }
        }
        // A coupon's discount (issue 26): the total is already after it.
        var discount: HTML = .empty
        if order.discount > 0 {
            discount = "<dt>Coupon</dt><dd id=\"discount\">−\(MoneyText.format(Money(amount: order.discount, currency: order.total.currency)))</dd>"
        }
        // Substitutions (issue 27): a rejected one is taken out of the bag before the hand-over,
        // said as plainly as the ID check; an undecided one is asked about at the desk.
        var takeOut: HTML = .empty
        let rejected = order.lines.filter(\.isRejected)
        if order.status.isOpen, !rejected.isEmpty {
            let items = rejected.map { "\($0.quantity) × \($0.name)" }.joined(separator: ", ")
            takeOut = "<p class=\"id-check take-out\" id=\"take-out\">TAKE OUT: \(items) (the customer rejected the substitute)</p>"
        }
        // Someone the customer named is collecting with their pass (issue 48): say so, so staff
        // do not ask them for the customer's name or ID.
        var collector: HTML = .empty
        if let pass = order.collector {
            collector = "<dt>Collecting</dt><dd id=\"collector\">for \(order.customerName): \(pass.name) (their pass)</dd>"
        }
        var arrival: HTML = .empty
        if let arrived = order.arrival, order.status.isOpen {
            arrival =
                "<dt>Arrived</dt><dd id=\"arrived\">\(arrived.bay.map { "bay \($0), " } ?? "")waiting <span class=\"wait\" data-since=\"\(Int64(arrived.at.timeIntervalSince1970 * 1000))\">\(TimeText.age(since: arrived.at))</span></dd>"
        }
        return """
            \(takeOut)
            <dl class="facts">
            <dt>Order</dt><dd id="order-number">\(order.number)</dd>
            <dt>Customer</dt><dd id="customer-name">\(order.customerName)</dd>
            \(collector)
            <dt>Status</dt><dd>\(order.status.rawValue)</dd>
            <dt>Slot</dt><dd id="pickup-slot">\(order.pickupSlot.map { SlotText.label($0, in: order.pickupTimeZone) } ?? "—")</dd>
            <dt>Bags/totes</dt><dd>\(totes.isEmpty ? "—" : totes.joined(separator: ", "))</dd>
            \(Self.bagsFact(order))
            \(arrival)\(discount)<dt>Total</dt><dd id="order-total">\(MoneyText.format(order.total))</dd>
            <dt>Amount due</dt><dd id="amount-due">\(MoneyText.format(order.amountDue))</dd>
            </dl>
            <table class="lines"><tbody>\(rows)</tbody></table>
            \(idNotice)
            """
    }

    private func actions(csrf: HTML) -> HTML {
        guard let order, let token else { return .empty }
        switch code {
        case "payment_required":
            let due = order.amountDue
            let pay = { (method: String, label: String) -> HTML in
                """
                <form method="post" action="/console/desk/payments" data-desk-action>
                \(csrf)
                <input type="hidden" name="token" value="\(token)">
                <input type="hidden" name="orderId" value="\(order.id)">
                <input type="hidden" name="amount" value="\(due.amount)">
                <input type="hidden" name="currency" value="\(due.currency)">
                <input type="hidden" name="method" value="\(method)">
                <button type="submit" class="big" id="pay-\(method)">\(label) \(MoneyText.format(due))</button>
                </form>
                """
            }
            return """
                \(decisions(order, token: token, csrf: csrf))
                <div class="actions">\(pay("cash", "Cash")) \(pay("card", "Card")) \(removeRestricted(order, token: token, csrf: csrf))</div>
                """
        case "ready":
            var confirm: HTML = .empty
            if let check = order.idCheck, check.confirmation == nil {
                confirm = """
                    <label class="id-check"><input type="checkbox" name="idChecked" value="true" id="id-checked">
                    I have checked ID: the customer is \(check.minimumAge) or over</label>
                    <select name="idCheckMethod" aria-label="How the ID was checked"><option value="seen">seen</option><option value="scanned">scanned</option></select>
                    """
            }
            return """
                \(decisions(order, token: token, csrf: csrf))
                <div class="actions">
                <form method="post" action="/console/desk/collections" data-desk-action>
                \(csrf)
                <input type="hidden" name="token" value="\(token)">
                \(confirm)
                \(Self.bagChecks(order))
                <button type="submit" class="big" id="hand-over">Hand over</button>
                </form>
                \(removeRestricted(order, token: token, csrf: csrf))
                </div>
                """
        default:
            return .empty
        }
    }

    /// Where each bag is (issue 47): number, zone and place, so the desk fetches every one.
    private static func bagsFact(_ order: Order) -> HTML {
        let bags = order.bags.bags
        guard !bags.isEmpty else { return .empty }
        let items = HTML.join(
            bags.map { bag in
                "<li id=\"bag-\(bag.number)\">Bag \(bag.number) of \(bags.count): \(bag.zone.rawValue), \(placeWords(bag))</li>"
            })
        return "<dt>Bags</dt><dd><ul class=\"bags\">\(items)</ul></dd>"
    }

    private static func placeWords(_ bag: OrderBag) -> String {
        if let place = bag.place { return "in \(place.name)" }
        if bag.handedOverAt != nil { return "handed over" }
        return "not staged"
    }

    /// An order of more than one bag is handed over with every bag ticked: one box per bag, and
    /// the count goes with the form (`bagsHandedOver`); a bag left unticked is refused (`bags_missing`).
    private static func bagChecks(_ order: Order) -> HTML {
        let bags = order.bags.bags
        guard bags.count > 1 else { return .empty }
        let boxes = HTML.join(
            bags.map { bag in
                """
                <label class="bag-check"><input type="checkbox" name="bag-\(bag.number)" value="handed" id="bag-check-\(bag.number)">
                Bag \(bag.number) of \(bags.count) (\(bag.zone.rawValue), \(placeWords(bag))) handed over</label>
                """
            })
        return """
            <fieldset class="bags"><legend>Every bag, ticked as it is handed over</legend>
            <input type="hidden" name="bagsCounted" value="true">
            \(boxes)
            </fieldset>
            """
    }

    /// Each substitution still undecided: the customer, at the desk, keeps it or gives it back
    /// (`decideSubstitution`, recorded by the staff member). One left undecided is taken as bagged.
    private func decisions(_ order: Order, token: String, csrf: HTML) -> HTML {
        HTML.join(
            order.lines.compactMap { line -> HTML? in
                guard let substitute = line.substitute, substitute.status == .proposed else { return nil }
                let form = { (decision: String, label: String, style: String) -> HTML in
                    """
                    <form method="post" action="/console/desk/substitutions" data-desk-action>
                    \(csrf)
                    <input type="hidden" name="token" value="\(token)">
                    <input type="hidden" name="orderId" value="\(order.id)">
                    <input type="hidden" name="substitutionId" value="\(substitute.id)">
                    <input type="hidden" name="decision" value="\(decision)">
                    <button type="submit" class="\(style)" id="\(decision)-\(substitute.id)">\(label)</button>
                    </form>
                    """
                }
                return """
                    <div class="actions decision"><span>\(line.quantity) × \(line.name) at \(MoneyText.format(line.unitPrice, order.total.currency)) each:</span>
                    \(form("accept", "Customer keeps it", "secondary")) \(form("reject", "Customer rejects it", "danger"))</div>
                    """
            })
    }

    /// "No ID": take the restricted lines off an unpaid order so the rest can go.
    private func removeRestricted(_ order: Order, token: String, csrf: HTML) -> HTML {
        guard let check = order.idCheck, check.confirmation == nil, order.paymentStatus == .unpaid else { return .empty }
        return """
            <form method="post" action="/console/desk/restricted-lines" data-desk-action>
            \(csrf)
            <input type="hidden" name="token" value="\(token)">
            <input type="hidden" name="orderId" value="\(order.id)">
            <button type="submit" class="secondary" id="remove-restricted">No ID: remove the \(check.minimumAge)+ lines</button>
            </form>
            """
    }
}
