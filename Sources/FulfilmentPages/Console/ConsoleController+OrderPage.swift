import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// One order in the console, `/console/orders/{id}` (staff of its store): its lines, its history
/// and the messages sent for it, each with whether the mail server took it (issue 44); and
/// "Send the ready message again" (`notifyOrderReady`, the same service as the API's).
extension ConsoleController {
    func registerOrderPage(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/orders/:orderId") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                try await orderPage(visit, orderID, notice: nil)
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
        let messages = try await services.mail.messages(of: order, logger: visit.logger)
        return OrderView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, order: order, messages: messages
        ).response(status: status)
    }
}
