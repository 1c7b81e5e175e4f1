import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The customer's own pages: `/orders` (`listOrders`) and `/orders/{id}` (`getOrder`), the one
/// place the QR receipt is shown — large enough to scan off a phone, the order number and the
/// token as text under it. The order's progress tracker follows the order's own event stream
/// (`/orders/{id}/events`, `streamOrderEvents` on the cookie session), and "I'm here" tells the
/// store the customer has arrived (`recordArrival`). From the order's page the customer keeps or
/// refuses a proposed substitute (`decideSubstitution`), moves the order to another pickup time
/// (`changePickupSlot`), changes a line's quantity or removes it until the cut-off (`changeOrderLines`,
/// issue 48), cancels it while pending (`cancelOrder`, after a page that asks), and
/// buys the same again (`setCartItem`, every line in one statement).
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
                let order = try await customersOrder(orderID, visit)
                let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                return customerOrderPage(visit, order: order, zone: zone)
            }
        }
        router.get("/orders/:orderId/tax-receipt") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "getOrder") { visit in
                let order = try await customersOrder(orderID, visit)
                let zone = try await services.orders.timeZone(ofStore: order.storeID, logger: visit.logger)
                // A store in no jurisdiction prints no tax receipt: its order has none.
                guard let receipt = TaxReceiptView.receipt(order, zone: zone) else { throw OrderError.orderNotFound }
                return ShopPageView.page("Receipt for order \(order.number)", frame: shopFrame(visit, place: nil, notice: nil), body: receipt)
                    .response()
            }
        }
        router.get("/orders/:orderId/events") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "streamOrderEvents") { visit in
                let order = try await services.orders.order(orderID, visibleTo: visit.identity, logger: visit.logger)
                guard order.customerID == visit.identity.userID else { throw OrderError.orderNotFound }
                let after = try EventStream.lastEventID(request.headers[HTTPField.Name("Last-Event-ID")!]) ?? 0
                let lease = try await services.events.open(for: visit.identity, takingOver: true, logger: visit.logger)
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

    func registerOrderChanges(on router: RouteCollection<AppRequestContext>) {
        router.post("/orders/:orderId/substitutions/:substitutionId") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            let substitutionID = context.parameters.get("substitutionId") ?? ""
            return try await page(request, context, operation: "decideSubstitution") { visit in
                let order = try await customersOrder(orderID, visit)
                return try await orderForm(visit, order) {
                    guard let id = SubstitutionID(substitutionID) else { throw SubstitutionError.substitutionNotFound }
                    let accept: Bool
                    switch visit.form["decision"] {
                    case "accept": accept = true
                    case "reject": accept = false
                    default: throw SubstitutionError.invalidField("decision", "Choose to keep the substitute or to refuse it.")
                    }
                    _ = try await services.substitutions.decide(id, of: order.id, accept: accept, by: visit.identity, logger: visit.logger)
                    return accept ? "kept" : "refused"
                }
            }
        }
        router.get("/orders/:orderId/slot") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "changePickupSlot") { visit in
                try await slotPage(visit, order: try await customersOrder(orderID, visit))
            }
        }
        router.post("/orders/:orderId/slot") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "changePickupSlot") { visit in
                let order = try await customersOrder(orderID, visit)
                let chosen = (try? Self.pickupSlot(visit.form)) ?? nil
                do {
                    guard let slot = try Self.pickupSlot(visit.form) else { throw SlotError.slotRequired }
                    let moved = try await services.pickupSlots.move(
                        order: order.id, to: slot, by: visit.identity, now: services.clock(), logger: visit.logger)
                    // The time it had already: nothing changed, the code neither (never "your code is new").
                    let same = moved.pickupSlot?.start == order.pickupSlot?.start
                    return ConsolePage.redirect("/orders/\(order.id)?notice=\(same ? "unmoved" : "moved")")
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await slotPage(
                        visit, order: order, chosen: chosen, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.post("/orders/:orderId/lines/:productId") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            let productID = context.parameters.get("productId") ?? ""
            return try await page(request, context, operation: "changeOrderLines") { visit in
                let order = try await customersOrder(orderID, visit)
                return try await orderForm(visit, order) {
                    guard let product = ProductID(productID) else { throw OrderError.productNotFound }
                    guard
                        let quantity = try ClientNumber.read(
                            visit.form["quantity"], field: "quantity", label: "The quantity", in: 0...Cart.maximumQuantity)
                    else { throw OrderError.invalidQuantity }
                    _ = try await services.orderChanges.change(
                        order: order.id, try OrderChange(checking: [OrderChange.Line(productID: product, quantity: quantity)]),
                        by: visit.identity.userID, logger: visit.logger)
                    return "changed"
                }
            }
        }
        router.get("/orders/:orderId/cancel") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "cancelOrder") { visit in
                let order = try await customersOrder(orderID, visit)
                guard order.status == .pending else { return ConsolePage.redirect("/orders/\(order.id)") }
                return OrderCancelView.page(frame: shopFrame(visit, place: nil), order: order).response()
            }
        }
        router.post("/orders/:orderId/cancel") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "cancelOrder") { visit in
                let order = try await customersOrder(orderID, visit)
                return try await orderForm(visit, order) {
                    _ = try await services.orderTransitions.cancelByCustomer(
                        order: order.id, reason: "Cancelled in the shop", by: visit.identity.userID, logger: visit.logger)
                    return "cancelled"
                }
            }
        }
        router.post("/orders/:orderId/buy-again") { request, context in
            let orderID = context.parameters.get("orderId") ?? ""
            return try await page(request, context, operation: "setCartItem") { visit in
                let order = try await customersOrder(orderID, visit)
                do {
                    let added = try await services.carts.addAgain(order, customer: visit.identity.userID, logger: visit.logger)
                    var text = added.added.isEmpty ? "Nothing could go in your cart." : "Added to your cart."
                    if !added.notAdded.isEmpty { text += " Not added: \(added.notAddedText)." }
                    return cartPage(
                        ShopVisit(visit), place: try await shopPlace(ShopVisit(visit)), notice: Notice(ok: !added.added.isEmpty, text: text))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return customerOrderPage(
                        visit, order: order, zone: order.pickupTimeZone, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
    }

    /// The customer's own order, else `orderNotFound` (staff of its store see it through the
    /// API, but these pages are the customer's alone).
    func customersOrder(_ id: String, _ visit: PageVisit) async throws -> Order {
        let order = try await services.orders.order(id, visibleTo: visit.identity, logger: visit.logger)
        guard order.customerID == visit.identity.userID else { throw OrderError.orderNotFound }
        return order
    }

    /// A form of the order's page: a success goes back to the page with its notice, a refusal is
    /// the page again with the refusal above it.
    private func orderForm(_ visit: PageVisit, _ order: Order, _ body: () async throws -> String) async throws -> Response {
        do {
            return ConsolePage.redirect("/orders/\(order.id)?notice=\(try await body())")
        } catch {
            let refused = try Self.clientRefusal(error)
            let fresh = try await customersOrder(order.id.description, visit)
            let zone = try await services.orders.timeZone(ofStore: fresh.storeID, logger: visit.logger)
            return customerOrderPage(visit, order: fresh, zone: zone, notice: Notice(ok: false, text: refused.message), status: refused.status)
        }
    }

    private func slotPage(
        _ visit: PageVisit, order: Order, chosen: Date? = nil, notice: Notice? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard order.pickupSlot != nil, order.status == .pending || order.status == .packaged else {
            return ConsolePage.redirect("/orders/\(order.id)")
        }
        let store = try await services.catalogue.store(order.storeID, logger: visit.logger)
        let (calendar, slots) = try await services.pickupSlots.available(
            store: order.storeID, from: nil, days: 7, now: services.clock(), logger: visit.logger)
        return OrderSlotView.page(
            frame: shopFrame(visit, place: nil, notice: notice), order: order, storeName: store.name, slots: slots, zone: calendar.timeZone,
            chosen: chosen, day: Self.query(visit.request)["day"].flatMap(LocalDate.init)
        ).response(status: status)
    }

    /// The order's page with its receipt (``OrderPageView``); times in `zone`, the store's.
    func customerOrderPage(
        _ visit: PageVisit, order: Order, zone: TimeZone?, notice: Notice? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        OrderPageView.page(frame: shopFrame(visit, place: nil, notice: notice), order: order, zone: zone).response(status: status)
    }
}
