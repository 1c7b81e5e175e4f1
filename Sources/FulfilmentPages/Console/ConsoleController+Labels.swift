import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The labels of an order's bags, `/console/orders/{id}/labels?size=80mm|a4` (staff of its store):
/// a page to print, read through `getOrder` as the order's own page is.
extension ConsoleController {
    func registerBagLabels(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/orders/:orderId/labels") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                guard visit.identity.role.worksInStore else { throw AccessError.forbidden }
                let requested = request.uri.queryParameters.get("size") ?? BagLabelsView.Size.roll.rawValue
                guard let size = BagLabelsView.Size(rawValue: requested) else {
                    throw APIError.invalidField("size", "Labels print at 80mm (a receipt printer's roll) or a4.")
                }
                let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                let other = size == .roll ? BagLabelsView.Size.sheet : .roll
                return ConsolePage(
                    title: "Bag labels for order \(order.number)", session: visit.session,
                    body: """
                        <p class="no-print"><a href="/console/orders/\(order.id)">← Order \(order.number)</a> · \
                        <a href="/console/orders/\(order.id)/labels?size=\(other.rawValue)" id="other-size">Print on \(other.rawValue) instead</a></p>
                        \(try BagLabelsView.labels(order, size: size, zone: zone))
                        """, bodyClass: "labels"
                ).response()
            }
        }
    }
}
