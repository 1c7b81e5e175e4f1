import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import PickList

/// Pick lists, `/console/pick-lists`: the open lists, creating one, the A4 sheet to print, and
/// pick mode for a 360 px handheld — one stop at a time in route order, a wedge-scanner box for
/// the product's barcode, a quantity per tote, "short" with the count found, and completing the
/// list. Each step is its API operation (`listPickLists`, `createPickList`, `getPickListHTML`,
/// `getPickList`, `recordPick`, `completePickList`) through the same `PickLists` service.
extension ConsoleController {
    func registerPickLists(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/pick-lists") { request, context in
            try await page(request, context, operation: "listPickLists", store: { $0.storeID }) { visit in
                try await pickListsPage(visit, notice: nil)
            }
        }
        router.post("/console/pick-lists") { request, context in
            try await page(request, context, operation: "createPickList", store: { $0.storeID }) { visit in
                let scope = try StoreScope(staff: visit.identity)
                do {
                    let pickList = try await services.pickLists.create(
                        in: scope, maxOrders: try visit.form.int("maxOrders", in: PickLists.maxOrdersRange) ?? 20, orderIDs: nil, by: visit.identity,
                        logger: visit.logger)
                    return ConsolePage.redirect("/console/pick-lists/\(pickList.id)/pick")
                } catch let refused as PickListError {
                    return try await pickListsPage(visit, notice: Notice(ok: false, text: refused.apiError.message), status: refused.apiError.status)
                }
            }
        }
        router.get("/console/pick-lists/:id/print") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await page(request, context, operation: "getPickListHTML") { visit in
                let pickList = try await services.pickLists.pickList(
                    try PickListID.parse(id), in: try StoreScope(staff: visit.identity), logger: visit.logger)
                var headers = ConsolePage.headers()
                // The sheet is a self-contained document with its own <style>; it runs no script at all.
                headers[SecurityHeaders.contentSecurityPolicy] = SecurityHeaders.sheetPolicy
                return Response(
                    status: .ok, headers: headers,
                    body: .init(byteBuffer: ByteBuffer(string: try pickList.route().htmlSheet(header: pickList.header))))
            }
        }
        router.get("/console/pick-lists/:id/pick") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await page(request, context, operation: "getPickList") { visit in
                let pickList = try await services.pickLists.pickList(
                    try PickListID.parse(id), in: try StoreScope(staff: visit.identity), logger: visit.logger)
                let stop = try ConsoleForm(encoded: request.uri.query ?? "").int("stop", label: "A stop", in: Self.stopNumbers)
                return try pickModePage(visit, pickList: pickList, stopNumber: stop, notice: nil)
            }
        }
        router.post("/console/pick-lists/:id/picks") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await page(request, context, operation: "recordPick") { visit in
                let pickListID = try PickListID.parse(id)
                let scope = try StoreScope(staff: visit.identity)
                let form = visit.form
                let stopNumber = try form.int("stop", label: "A stop", in: Self.stopNumbers) ?? 1
                var notice: Notice?
                if let order = form.text("orderId").flatMap({ OrderID($0) }) {
                    do {
                        let outcome = try await services.pickLists.pick(
                            on: pickListID, order: order, productID: form.text("productId").flatMap { ProductID($0) },
                            barcode: form.text("barcode"), quantity: try form.int("quantity", label: "The quantity", in: Self.pickQuantities) ?? 0,
                            short: form.text("short") == "true",
                            in: scope, by: visit.identity, logger: visit.logger)
                        notice = Notice(
                            ok: true,
                            text: outcome.short
                                ? "Closed short: \(outcome.picked) of \(outcome.ordered)." : "Picked \(outcome.picked) of \(outcome.ordered).")
                    } catch let refused as PickListError {
                        notice = Notice(ok: false, text: Self.pickRefusal(refused))
                    }
                }
                let pickList = try await services.pickLists.pickList(pickListID, in: scope, logger: visit.logger)
                let stops = try pickList.route().stops
                // Once every tote of this stop is done, move on to the next stop.
                var next = stopNumber
                if notice?.ok == true, stops.indices.contains(stopNumber - 1),
                    Self.isDone(stops[stopNumber - 1], pickList.lineIndex), stopNumber < stops.count
                {
                    next = stopNumber + 1
                }
                return try pickModePage(
                    visit, pickList: pickList, stopNumber: next, notice: notice, status: notice?.ok == false ? .unprocessableContent : .ok)
            }
        }
        router.post("/console/pick-lists/:id/substitutions") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await page(request, context, operation: "createSubstitution") { visit in
                let pickListID = try PickListID.parse(id)
                let scope = try StoreScope(staff: visit.identity)
                let form = visit.form
                let stopNumber = try form.int("stop", label: "A stop", in: Self.stopNumbers) ?? 1
                var notice: Notice?
                if let order = form.text("orderId").flatMap({ OrderID($0) }), let product = form.text("productId").flatMap({ ProductID($0) }) {
                    do {
                        let (placed, substitution) = try await services.substitutions.substitute(
                            on: pickListID, order: order, product: product, choice: .barcode(form.text("substituteBarcode") ?? ""),
                            quantity: try form.int("quantity", label: "The quantity", in: Self.pickQuantities) ?? 0, in: scope, by: visit.identity,
                            logger: visit.logger)
                        let line = placed.lines.first { $0.substitute?.id == substitution }
                        notice = Notice(
                            ok: true,
                            text:
                                "Substituted \(line?.quantity ?? 0) × \(line?.name ?? "") at \(MoneyText.format(line?.unitPrice ?? 0, placed.total.currency)) each; the customer is asked."
                        )
                    } catch let refused as any APIErrorConvertible where refused is SubstitutionError || refused is PickListError {
                        notice = Notice(ok: false, text: refused.apiError.message)
                    }
                }
                let pickList = try await services.pickLists.pickList(pickListID, in: scope, logger: visit.logger)
                return try pickModePage(
                    visit, pickList: pickList, stopNumber: stopNumber, notice: notice, status: notice?.ok == false ? .unprocessableContent : .ok)
            }
        }
        router.post("/console/pick-lists/:id/complete") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await page(request, context, operation: "completePickList") { visit in
                // One tap at stop 1 of 3 closed a whole list (issue 46): with stops still to
                // pick, the page asks first, says how many, and completes only when confirmed.
                if visit.form.text("confirm") != "yes" {
                    let pickList = try await services.pickLists.pickList(
                        try PickListID.parse(id), in: try StoreScope(staff: visit.identity), logger: visit.logger)
                    let stops = try pickList.route().stops
                    let unpicked = stops.indices.filter { !Self.isDone(stops[$0], pickList.lineIndex) }
                    if pickList.isOpen, let first = unpicked.first {
                        let csrf = ConsolePage.csrfInput(visit.session)
                        return PickModeView.page(
                            session: visit.session, csrf: csrf, notice: nil, pickList: pickList, stops: stops, number: first + 1,
                            unpickedToConfirm: unpicked.count
                        ).response(status: .ok)
                    }
                }
                let completion = try await services.pickLists.complete(
                    try PickListID.parse(id), in: try StoreScope(staff: visit.identity), by: visit.identity, logger: visit.logger)
                return try await pickListsPage(
                    visit,
                    notice: Notice(
                        ok: true,
                        text: "Pick list complete: \(completion.packaged.count) order(s) packaged, \(completion.leftPending.count) left pending."))
            }
        }
    }

    /// What a stop number in pick mode may be before the list is read: a list holds at most 200
    /// orders, so far fewer distinct stops than this; the page then keeps it within the list's own.
    static let stopNumbers = 1...100_000
    /// A quantity picked or substituted at one tote, as a line's quantity is.
    static let pickQuantities = 0...Cart.maximumQuantity

    /// wrong_product and over_pick in words a picker reads at once.
    static func pickRefusal(_ error: PickListError) -> String {
        let apiError = error.apiError
        switch apiError.code {
        case "wrong_product": return "WRONG PRODUCT — \(apiError.message)"
        case "over_pick": return "OVER-PICK — \(apiError.message)"
        default: return apiError.message
        }
    }

    /// Whether every tote of `stop` has all it ordered or was closed short.
    static func isDone(_ stop: PickStop, _ progress: PickListRecord.LineIndex) -> Bool {
        stop.allocations.allSatisfy { allocation in
            guard let line = progress.line(order: allocation.tote.orderID, product: stop.productID) else { return true }
            return line.short || line.picked >= line.quantity
        }
    }

    func pickListsPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let open = try await services.pickLists.open(in: try StoreScope(staff: visit.identity), logger: visit.logger)
        let csrf = ConsolePage.csrfInput(visit.session)
        return PickListsView.page(session: visit.session, csrf: csrf, notice: notice, open: open).response(status: status)
    }

    func pickModePage(
        _ visit: PageVisit, pickList: PickListRecord, stopNumber: Int?, notice: Notice?, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let progress = pickList.lineIndex
        let csrf = ConsolePage.csrfInput(visit.session)
        let stops = try pickList.route().stops
        let firstOpen = stops.firstIndex { !Self.isDone($0, progress) }.map { $0 + 1 } ?? max(stops.count, 1)
        let number = min(max(stopNumber ?? firstOpen, 1), max(stops.count, 1))
        return PickModeView.page(session: visit.session, csrf: csrf, notice: notice, pickList: pickList, stops: stops, number: number)
            .response(status: status)
    }
}
