import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The order board, `/console/orders`: the store's open orders by status, then by pickup slot
/// (earliest first, each slot a group; orders without a slot after them, oldest first), with
/// late orders (slot over, not collected) flagged, and the moves the state machine allows. Reading is `listStoreOrders` for the caller's own store;
/// each move is `transitionOrder`, through the `OrderTransitions` service like the API. It updates itself
/// from the store's event stream (`/console/events`).
extension ConsoleController {
    func registerBoard(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/orders") { request, context in
            try await page(request, context, operation: "listStoreOrders", store: { $0.storeID }) { visit in
                try await boardPage(visit, notice: nil)
            }
        }
        router.post("/console/orders/:orderId/transitions") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "transitionOrder") { visit in
                guard let id = OrderID(orderID), let target = visit.form.text("to").flatMap(OrderStatus.init(rawValue:)) else {
                    return try await boardPage(visit, notice: Notice(ok: false, text: "That order or move was not understood."), status: .badRequest)
                }
                do {
                    let order = try await services.orderTransitions.move(
                        order: id, to: target, reason: try OrderTransitions.reason(visit.form["reason"]), by: visit.identity.userID,
                        in: try StoreScope(staff: visit.identity), logger: visit.logger)
                    return try await boardPage(visit, notice: Notice(ok: true, text: "Order \(order.number) is now \(order.status.rawValue)."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await boardPage(visit, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
    }

    func boardPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let store = visit.identity.storeID else { throw AccessError.forbidden }
        let page = try await services.orders.board(of: store, in: try StoreScope(staff: visit.identity), limit: 200, logger: visit.logger)
        // The store's clock, read once per page by the pages' front door (the board is the caller's store's).
        let zone = TimeText.zone
        let now = services.clock()
        let csrf = ConsolePage.csrfInput(visit.session)
        return BoardView.page(session: visit.session, csrf: csrf, notice: notice, orders: page.items, zone: zone, now: now)
            .response(status: status)
    }
}
