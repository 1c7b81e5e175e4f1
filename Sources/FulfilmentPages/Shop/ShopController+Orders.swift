import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

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
                return MyOrdersView.page(session: visit.session, orders: page.items).response()
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

    /// The order's page with its receipt (``OrderPageView``); times in `zone`, the store's.
    func customerOrderPage(
        _ visit: PageVisit, order: Order, zone: TimeZone?, notice: Notice? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        OrderPageView.page(frame: shopFrame(visit, place: nil, notice: notice), order: order, zone: zone).response(status: status)
    }
}
