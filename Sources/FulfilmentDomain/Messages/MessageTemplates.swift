import Foundation
import QRReceipt

/// Every message's words, in one place (issue 44): a template per kind, in the store's currency
/// and with times on the store's clock. The store's name, address and logo head and sign it;
/// an account's own messages (password, email) are signed by the chain's sender name.
package enum MessageTemplates {
    /// The pickup QR's content id: the HTML part shows it with `cid:`, the mail carries it inline.
    package static let qrContentID = "pickup-qr@fulfilment"

    package struct Rendered: Sendable {
        package var subject: String
        package var body: MessageBody
        /// Whether the pickup QR goes inline with it.
        package var showsQR: Bool
    }

    package static func render(_ message: MessageRecord, _ content: MessageContent, chainName: String) -> Rendered {
        let store = content.store
        let sender = store?.name ?? chainName
        var blocks: [MessageBody.Block] = []
        var subject = ""
        var showsQR = false
        var footer = "You get this message because you have an account with \(sender)."
        let ordered = "You get this message because you placed an order with \(sender)."
        let order = content.order
        let zone = store?.timeZone
        let number = order.map { "#\($0.number)" } ?? ""
        let data = JSONValue.object(message.data)
        let orderLink = order.flatMap { content.url("/orders/\($0.id)") }
        let greeting = content.name.isEmpty ? "Hello" : "Hello \(content.name)"

        func qr() {
            guard let order, let pickup = order.pickup, order.status.isOpen else { return }
            showsQR = true
            blocks.append(
                .image(
                    cid: qrContentID, alt: "Pickup code for order \(number)",
                    textInstead: "Your pickup code is in this message's HTML version, and on your order's page."))
            // The letters the desk types when the QR will not scan (issue 46), in both parts.
            blocks.append(.facts([("Code", PickupShortCode.printed(PickupShortCode.of(pickup.text)))]))
        }
        func slotFacts() -> [(String, String)] {
            guard let order else { return [] }
            var facts: [(String, String)] = [("Order", number)]
            if let slot = order.pickupSlot { facts.append(("Collect", SlotText.label(slot, in: zone))) }
            if let store, !store.address.isEmpty { facts.append(("Where", "\(store.name), \(store.address)")) }
            return facts
        }

        switch message.kind {
        case .orderPlaced:
            subject = "Your order \(number) at \(sender)"
            blocks.append(.heading("Thank you for your order"))
            blocks.append(.paragraph("\(greeting), we have your order \(number). Show the code below at the desk when you collect it."))
            if let order {
                blocks.append(
                    .lines(order.lines.filter { $0.held > 0 }.map { ($0.name, $0.held, MoneyText.format($0.amount, order.total.currency)) }))
                var facts = slotFacts()
                if order.discount > 0 { facts.append(("Discount", "−" + MoneyText.format(order.discount, order.total.currency))) }
                facts.append(("Total", MoneyText.format(order.total)))
                facts.append(("Payment", order.paymentStatus.isSettled ? "Paid" : "Pay when you collect"))
                blocks.append(.facts(facts))
            }
            qr()
            if let orderLink { blocks.append(.button("See your order", orderLink)) }
            footer = ordered

        case .readyForPickup:
            subject = "Order \(number) is ready to collect at \(sender)"
            blocks.append(.heading("Your order is ready"))
            blocks.append(.paragraph("\(greeting), your order \(number) is packed and waiting for you."))
            var facts = slotFacts()
            if let hours = store.flatMap({ openingHours($0.hours) }) { facts.append(("Opening hours", hours)) }
            if let order, order.amountDue.amount != 0 { facts.append(("To pay", MoneyText.format(order.amountDue))) }
            blocks.append(.facts(facts))
            if let minimum = order?.idCheck?.minimumAge {
                blocks.append(.note("Your order has items you must be \(minimum) or over to buy: bring a photo ID, or they stay in the store."))
            }
            qr()
            if let orderLink { blocks.append(.button("I'm here", orderLink)) }
            footer = ordered

        case .substitutionProposed:
            subject = "A substitution in order \(number): please decide"
            blocks.append(.heading("Something was out of stock"))
            let substitution = data["substitution"]
            let original = substitution["productName"].string ?? "an item"
            let offered = substitution["substituteName"].string ?? "a substitute"
            let quantity = Int64(substitution["quantity"].int ?? 0)
            let unit = Int64(substitution["unitPrice"]["amount"].int ?? 0)
            let currency = substitution["unitPrice"]["currency"].string ?? order?.total.currency ?? ""
            blocks.append(.paragraph("\(greeting), we had no \(original) for your order \(number). We can give you \(offered) instead."))
            var facts: [(String, String)] = [("Out of stock", original), ("Offered", "\(quantity) × \(offered)")]
            facts.append(("Price", MoneyText.format(unit &* quantity, currency)))
            if let was = order?.lines.first(where: { $0.productID.rawValue.uuidString.lowercased() == substitution["productId"].string?.lowercased() }
            ) {
                let difference = (unit &- was.unitPrice) &* quantity
                facts.append(("Difference", difference == 0 ? "None" : (difference > 0 ? "+" : "") + MoneyText.format(difference, currency)))
            }
            blocks.append(.facts(facts))
            if let orderLink { blocks.append(.button("Accept or refuse", orderLink)) }
            footer = ordered

        case .collectionReminder:
            subject = "Order \(number) is waiting for you at \(sender)"
            blocks.append(.heading("Your order is still waiting"))
            let deadline = data["expiresAt"].string.flatMap { try? Date($0, strategy: .iso8601) }
            let by = deadline.map { TimeText.local($0, in: zone) } ?? "soon"
            blocks.append(.paragraph("\(greeting), your order \(number) is ready. Please collect it by \(by): after that it is cancelled."))
            blocks.append(.facts(slotFacts()))
            qr()
            if let orderLink { blocks.append(.button("See your order", orderLink)) }
            footer = "You get reminders because you asked for them. You can turn them off in your account, or with the link below."

        case .orderCancelled:
            subject = "Order \(number) at \(sender) was cancelled"
            blocks.append(.heading("Your order was cancelled"))
            let reason = data["reason"].string
            let why =
                switch reason {
                case OrderExpiry.reason: "it was not collected in time"
                case let text? where data["byStaff"].bool == true: "the store cancelled it (\(text))"
                case let text?: text
                case nil: "it was cancelled"
                }
            blocks.append(.paragraph("\(greeting), your order \(number) was cancelled: \(why)."))
            // What was owed as it was cancelled (`data.refundDue`), not now: the refund may be made before this is sent.
            let owed = data["refundDue"].int.map(Int64.init) ?? order?.refundDueAmount ?? 0
            if let order, owed > 0 {
                blocks.append(.paragraph("You are owed \(MoneyText.format(owed, order.total.currency)). We will tell you when it is paid back."))
            } else {
                blocks.append(.paragraph("Nothing was charged for it."))
            }
            footer = ordered

        case .orderLate:
            // Issue 47: sent once, when the late-risk sweep finds the order not packed by its
            // ready-by time; the order's page is where they keep it, move it or cancel it.
            subject = "Order \(number) at \(sender) is running late"
            blocks.append(.heading("Your order is running late"))
            let expected = data["expectedReadyAt"].string.flatMap { try? Date($0, strategy: .iso8601) }
            let when = expected.map { "about \(TimeText.local($0, in: zone))" } ?? "a little later than planned"
            blocks.append(.paragraph("\(greeting), we are sorry: your order \(number) will not be ready in time. We now expect it ready \(when)."))
            blocks.append(.facts(slotFacts()))
            blocks.append(
                .paragraph(
                    "You may keep your order and collect it then, choose another pickup time, or cancel it and get all you paid back, from your order's page."
                ))
            if let orderLink { blocks.append(.button("Keep, move or cancel", orderLink)) }
            footer = ordered

        case .refundMade:
            let amount = MoneyText.format(Int64(data["amount"].int ?? 0), data["currency"].string ?? "")
            subject = "Refund of \(amount) for order \(number)"
            blocks.append(.heading("We have refunded you"))
            let how = data["method"].string == "desk" ? "at the store's desk" : "to the card or account you paid with"
            blocks.append(.paragraph("\(greeting), we refunded \(amount) for your order \(number), \(how)."))
            if let orderLink { blocks.append(.button("See your order", orderLink)) }
            footer = ordered

        case .backInStock:
            let product = data["product"]["name"].string ?? "A favourite"
            subject = "\(product) is back at \(sender)"
            blocks.append(.heading("Back in stock"))
            blocks.append(.paragraph("\(greeting), \(product), one of your favourites, is back in stock at \(sender)."))
            if let link = content.url("/shop?q=" + (product.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) {
                blocks.append(.button("Order it now", link))
            }
            footer =
                "You get this message because you asked to hear when favourites are back. You can turn it off in your account, or with the link below."

        case .passwordReset:
            subject = "Reset your password for \(sender)"
            blocks.append(.heading("Reset your password"))
            blocks.append(.paragraph("\(greeting), someone (we hope you) asked to reset the password of your account."))
            if let link = content.actionURL { blocks.append(.button("Choose a new password", link)) }
            blocks.append(.note("The link works once, for 30 minutes. If you did not ask, ignore this message: your password stays as it is."))
            footer = "You get this message because a password reset was asked for your account."

        case .staffInvite:
            let inviter = data["invitedBy"].string ?? "The store's manager"
            let role = data["role"].string == "manager" ? "a manager" : "staff"
            subject = "You are invited to \(sender)'s store console"
            blocks.append(.heading("Welcome to the team"))
            blocks.append(
                .paragraph("\(greeting), \(inviter) added you to \(sender) as \(role). Choose your password to sign in to the store console."))
            if let link = content.actionURL { blocks.append(.button("Choose your password", link)) }
            blocks.append(
                .note("The link works once, for 7 days. If you were not expecting this, ignore it: nobody can sign in without that password."))
            footer = "You get this message because a manager of \(sender) added this address to the store's team."

        case .emailChangeConfirmation:
            subject = "Confirm your new email address for \(sender)"
            blocks.append(.heading("Confirm your new email address"))
            blocks.append(.paragraph("\(greeting), please confirm that this is the address you want your account to use."))
            if let link = content.actionURL { blocks.append(.button("Confirm this address", link)) }
            blocks.append(.note("The link works once, for 24 hours. Until you confirm, your account keeps its old address."))
            footer = "You get this message because this address was given for an account with \(sender)."

        case .emailChangedNotice:
            let new = data["newEmail"].string ?? "another address"
            subject = "The email address of your \(sender) account is changing"
            blocks.append(.heading("Your email address is changing"))
            blocks.append(
                .paragraph(
                    "\(greeting), someone signed in to your account asked to change its email address to \(new). It changes when that address confirms."
                ))
            blocks.append(.note("If this was not you, reset your password now and tell the store."))
            if let link = content.url("/password-reset") { blocks.append(.button("Reset your password", link)) }
            footer = "You get this message because it concerns your account with \(sender)."
        }
        let body = MessageBody(
            blocks: blocks, sender: sender, senderAddress: store?.address ?? "", logoURL: store?.logoURL, footer: footer,
            unsubscribe: message.kind.isOptional ? content.unsubscribe : nil)
        return Rendered(subject: subject, body: body, showsQR: showsQR)
    }

    /// The week's opening hours, day by day (`Mon 08:00–20:00, Tue …`); nil without any.
    static func openingHours(_ ranges: [StoreCalendar.Range]) -> String? {
        guard !ranges.isEmpty else { return nil }
        let days = (1...7).compactMap { weekday -> String? in
            let today = ranges.filter { $0.weekday == weekday }.sorted { $0.opens < $1.opens }
            guard !today.isEmpty else { return nil }
            let spans = today.map { $0.opens == $0.closes ? "open all day" : "\(StoreCalendar.clock($0.opens))–\(StoreCalendar.clock($0.closes))" }
            return "\(SlotText.weekdays[weekday - 1]) \(spans.joined(separator: ", "))"
        }
        return days.joined(separator: "; ")
    }
}
