import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// One order in the console, `/console/orders/{id}` (staff of its store): its lines against
/// checkout, its payment and refunds (`listOrderPayments`), its history and the messages sent for
/// it, each with whether the mail server took it (issue 44); "Send the ready message again"
/// (`notifyOrderReady`) and, for a manager, "I paid back" (`recordRefund`), through the same
/// services as the API's.
extension ConsoleController {
    func registerOrderPage(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/orders/:orderId") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                try await orderPage(visit, orderID, notice: nil)
            }
        }
        // The order's VAT/GCT receipt, printed for a customer who asks at the desk.
        router.get("/console/orders/:orderId/tax-receipt") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                guard visit.identity.role.worksInStore else { throw AccessError.forbidden }
                let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                guard let receipt = TaxReceiptView.receipt(order, zone: zone) else { throw OrderError.orderNotFound }
                return ConsolePage(
                    title: "Receipt for order \(order.number)", session: visit.session,
                    body: "<p><a href=\"/console/orders/\(order.id)\">← Order \(order.number)</a></p>\(receipt)"
                ).response()
            }
        }
        // A manager records money paid back at the desk: the amount and currency are what the
        // order owes back as the page showed them (as the desk's payment form carries its amount
        // due), and `Refunds` checks both under the order's lock.
        router.post("/console/orders/:orderId/refunds") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "recordRefund") { visit in
                do {
                    guard let id = OrderID(orderID) else { throw OrderError.orderNotFound }
                    guard let currency = visit.form.text("currency") else {
                        throw APIError.invalidField("amount", "The refund is what the order owes back; reload the page.")
                    }
                    let lines = visit.form["by"] == "lines" ? try Self.refundLines(visit.form) : nil
                    let amount: Int64
                    if let lines {
                        amount = lines.reduce(0) { $0 &+ $1.amount }
                    } else {
                        guard let whole = try visit.form.int("amount", label: "The refund", in: 1...10_000_000_000) else {
                            throw APIError.invalidField("amount", "The refund is what the order owes back; reload the page.")
                        }
                        amount = Int64(whole)
                    }
                    let refund = try await services.refunds.record(
                        order: id, amount: Money(amount: amount, currency: currency), lines: lines, note: visit.form["note"],
                        by: visit.identity.userID, in: try StoreScope(staff: visit.identity), logger: visit.logger)
                    return try await orderPage(
                        visit, orderID, notice: Notice(ok: true, text: "Recorded: \(MoneyText.format(refund.amount)) paid back."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await orderPage(visit, orderID, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.post("/console/orders/:orderId/ready-message") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "notifyOrderReady") { visit in
                do {
                    guard let id = OrderID(orderID) else { throw OrderError.orderNotFound }
                    _ = try await services.readyNotifications.resend(order: id, by: visit.identity, logger: visit.logger)
                    return try await orderPage(visit, orderID, notice: Notice(ok: true, text: "The ready message is on its way again."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await orderPage(visit, orderID, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
    }

    /// The lines ticked on the order page's "pay back some lines" form (`line-<productId>` = the
    /// amount the page showed), each bounded before they are added up.
    static func refundLines(_ form: ConsoleForm) throws(APIError) -> [LineRefunds.Owing] {
        let ticked = form.fields.keys.filter { $0.hasPrefix("line-") }.sorted()
        guard !ticked.isEmpty else { throw .invalidField("lines", "Tick the lines you paid back.") }
        guard ticked.count <= 100 else { throw .invalidField("lines", "A refund pays back at most 100 lines.") }
        return try ticked.map { name throws(APIError) in
            guard let product = ProductID(String(name.dropFirst("line-".count))),
                let amount = try form.int(name, label: "A line's refund", in: 1...10_000_000_000)
            else { throw .invalidField("lines", "A ticked line is not one of this order's; reload the page.") }
            return LineRefunds.Owing(productID: product, amount: Int64(amount))
        }
    }

    func orderPage(_ visit: PageVisit, _ orderID: String, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard visit.identity.role.worksInStore else { throw AccessError.forbidden }
        let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
        async let messages = services.mail.messages(of: order, logger: visit.logger)
        async let movements = services.payments.movements(of: order, logger: visit.logger)
        return OrderView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, order: order, messages: try await messages,
            movements: try await movements
        ).response(status: status)
    }
}
