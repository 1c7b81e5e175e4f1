import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// "Find an order" (issue 46), `/console/order-search?q=`: a customer on the phone or at the desk
/// without their phone is found by their order's number, their name or email, or a scanned
/// receipt, among the caller's store's orders of any status, newest first. `listStoreOrders`
/// with `q`, through the same `Orders.search` as the API.
extension ConsoleController {
    func registerOrderSearch(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/order-search") { request, context in
            try await page(request, context, operation: "listStoreOrders", store: { $0.storeID }) { visit in
                guard let store = visit.identity.storeID else { throw AccessError.forbidden }
                // A form's GET: `+` is a space, as in a posted form (`ConsoleForm`).
                let query = ConsoleForm(encoded: request.uri.query ?? "")
                let text = query["q"] ?? ""
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    return OrderSearchView.page(session: visit.session, text: "", found: nil, notice: nil).response()
                }
                do {
                    let found = try await services.orders.search(
                        text, of: store, in: try StoreScope(staff: visit.identity), limit: 50,
                        cursor: query.text("cursor"), logger: visit.logger)
                    return OrderSearchView.page(session: visit.session, text: text, found: found, notice: nil).response()
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return OrderSearchView.page(
                        session: visit.session, text: String(text.prefix(OrderSearch.maximumLength)), found: nil,
                        notice: Notice(ok: false, text: refused.message)
                    ).response(status: refused.status)
                }
            }
        }
    }
}
