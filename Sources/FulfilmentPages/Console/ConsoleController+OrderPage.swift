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
                    guard let amount = try visit.form.int("amount", label: "The refund", in: 1...10_000_000_000),
                        let currency = visit.form.text("currency")
                    else { throw APIError.invalidField("amount", "The refund is what the order owes back; reload the page.") }
                    let refund = try await services.refunds.record(
                        order: id, amount: Money(amount: Int64(amount), currency: currency), note: visit.form["note"],
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
