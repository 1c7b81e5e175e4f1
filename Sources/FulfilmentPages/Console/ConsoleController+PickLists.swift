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

    /// A tote's "give something else" form (issue 27): scan the substitute, say how many. Not for
    /// a line whose customer said no substitutes.
    private func substituteForm(
        key: String, csrf: HTML, stop: Int, tote: Tote, product: PickList.ProductID, line: PickListRecord.Line?, remaining: Int
    ) -> HTML {
        guard let line, line.substitution.kind != .none, remaining > 0 else { return .empty }
        return """
            <form method="post" action="/console/pick-lists/\(key)/substitutions" class="actions substitute" id="substitute-\(tote.label)">
            \(csrf)<input type="hidden" name="stop" value="\(stop)">
            <input type="hidden" name="orderId" value="\(tote.orderID.rawValue)">
            <input type="hidden" name="productId" value="\(product.rawValue)">
            <label>Substitute: scan <input name="substituteBarcode" autocomplete="off" inputmode="numeric" id="substitute-barcode-\(tote.label)" aria-label="The substitute's barcode for tote \(tote.label)"></label>
            <label>× <input name="quantity" type="number" min="1" max="\(remaining)" value="\(remaining)" id="substitute-quantity-\(tote.label)" aria-label="How many substitutes for tote \(tote.label)"></label>
            <button type="submit" class="secondary" id="substitute-button-\(tote.label)">Substitute</button>
            </form>
            """
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
        let rows = HTML.join(
            open.map { pickList in
                let key = pickList.id.description
                return """
                    <tr><td data-label="Created">\(TimeText.format(pickList.createdAt))</td><td data-label="Orders">\(pickList.orderCount)</td>
                    <td><a class="button" href="/console/pick-lists/\(key)/pick">Pick mode</a>
                    <a class="button secondary" href="/console/pick-lists/\(key)/print" target="_blank">Print (A4)</a></td></tr>
                    """
            })
        let list: HTML =
            open.isEmpty
            ? "<p class=\"hint\">No open pick lists.</p>"
            : """
            <table id="open-pick-lists" class="cards compact"><thead><tr><th>Created</th><th>Orders</th><th></th></tr></thead><tbody>\(rows)</tbody></table>
            """
        let noticeHTML = notice.map { $0.render(id: "pick-note") } ?? .empty
        return ConsolePage(
            title: "Pick lists", session: visit.session,
            body: """
                <h1>Pick lists</h1>
                \(noticeHTML)
                <form method="post" action="/console/pick-lists" class="actions" id="create-pick-list">
                \(csrf)
                <label for="maxOrders">Orders on the new list</label>
                <input id="maxOrders" name="maxOrders" type="number" min="1" max="200" value="10">
                <button type="submit" id="create">Create a pick list</button>
                </form>
                \(list)
                """
        ).response(status: status)
    }

    func pickModePage(
        _ visit: PageVisit, pickList: PickListRecord, stopNumber: Int?, notice: Notice?, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let progress = pickList.lineIndex
        let key = pickList.id.description
        let csrf = ConsolePage.csrfInput(visit.session)
        let stops = try pickList.route().stops
        let firstOpen = stops.firstIndex { !Self.isDone($0, progress) }.map { $0 + 1 } ?? max(stops.count, 1)
        let number = min(max(stopNumber ?? firstOpen, 1), max(stops.count, 1))
        let noticeHTML = notice.map { $0.render(id: "pick-note") } ?? .empty
        var stopHTML: HTML = "<p class=\"hint\">This list has nothing to pick.</p>"
        if stops.indices.contains(number - 1) {
            let stop = stops[number - 1]
            let place = stop.location.map { "Aisle \($0.aisle.code) · bay \($0.bay) · shelf \($0.shelf)" } ?? "Not located yet"
            let current = stop.allocations.first { allocation in
                guard let line = progress.line(order: allocation.tote.orderID, product: stop.productID) else { return false }
                return !line.short && line.picked < line.quantity
            }
            let totes = HTML.join(
                stop.allocations.map { allocation in
                    let line = progress.line(order: allocation.tote.orderID, product: stop.productID)
                    let picked = line?.picked ?? 0
                    let remaining = max(allocation.quantity - picked, 0)
                    let done = line?.short == true || remaining == 0
                    let state: HTML =
                        line?.short == true
                        ? "short (\(picked) of \(allocation.quantity))"
                        : done ? "done (\(picked))" : "\(picked) of \(allocation.quantity)"
                    let controls: HTML =
                        done
                        ? .empty
                        : """
                        <form method="post" action="/console/pick-lists/\(key)/picks" class="actions">
                        \(csrf)<input type="hidden" name="stop" value="\(number)">
                        <input type="hidden" name="orderId" value="\(allocation.tote.orderID.rawValue)">
                        <input type="hidden" name="productId" value="\(stop.productID.rawValue)">
                        <input type="hidden" name="quantity" value="\(remaining)">
                        <button type="submit" id="tap-\(allocation.tote.label)">Picked \(remaining)</button>
                        </form>
                        <form method="post" action="/console/pick-lists/\(key)/picks" class="actions">
                        \(csrf)<input type="hidden" name="stop" value="\(number)">
                        <input type="hidden" name="orderId" value="\(allocation.tote.orderID.rawValue)">
                        <input type="hidden" name="productId" value="\(stop.productID.rawValue)">
                        <input type="hidden" name="short" value="true">
                        <label>Found <input name="quantity" type="number" min="0" max="\(remaining)" value="0" id="found-\(allocation.tote.label)" aria-label="How many found for tote \(allocation.tote.label)"></label>
                        <button type="submit" class="danger" id="short-\(allocation.tote.label)">Short</button>
                        </form>
                        \(substituteForm(key: key, csrf: csrf, stop: number, tote: allocation.tote, product: stop.productID, line: line, remaining: remaining))
                        """
                    let preference: HTML =
                        line.map { "<span class=\"sub-pref\" id=\"sub-pref-\(allocation.tote.label)\">\($0.substitutionNote)</span>" } ?? .empty
                    let substituted: HTML =
                        (line?.substituted ?? 0) > 0 ? " <span class=\"hint\">(\(line?.substituted ?? 0) substituted)</span>" : .empty
                    return """
                        <li id="tote-\(allocation.tote.label)"><strong>Tote \(allocation.tote.label)</strong> · order \(allocation.tote.orderNumber) ·
                        <span class="tote-state">\(state)</span>\(substituted) \(preference)\(controls)</li>
                        """
                })
            let scan: HTML =
                current.map { allocation in
                    let line = progress.line(order: allocation.tote.orderID, product: stop.productID)
                    let remaining = max(allocation.quantity - (line?.picked ?? 0), 0)
                    return """
                        <form method="post" action="/console/pick-lists/\(key)/picks" id="scan-form">
                        \(csrf)<input type="hidden" name="stop" value="\(number)">
                        <input type="hidden" name="orderId" value="\(allocation.tote.orderID.rawValue)">
                        <input type="hidden" name="productId" value="\(stop.productID.rawValue)">
                        <label for="barcode">Scan the product for tote \(allocation.tote.label)</label>
                        <input id="barcode" name="barcode" class="scan-input" autofocus autocomplete="off" inputmode="numeric">
                        <label for="quantity">Quantity</label>
                        <input id="quantity" name="quantity" type="number" min="1" value="\(remaining)">
                        <button type="submit" id="scan-pick">Pick</button>
                        </form>
                        """
                } ?? "<p class=\"notice notice-ok\" id=\"stop-done\">This stop is done.</p>"
            let previous: HTML = number > 1 ? "<a class=\"button secondary\" href=\"?stop=\(number - 1)\">◀ Back</a>" : .empty
            let following: HTML =
                number < stops.count ? "<a class=\"button secondary\" id=\"next-stop\" href=\"?stop=\(number + 1)\">Next ▶</a>" : .empty
            stopHTML = """
                <section class="stop" id="stop" data-stop="\(number)">
                <p class="hint">Stop \(number) of \(stops.count)</p>
                <p class="where" id="stop-where">\(place)</p>
                <p class="what" id="stop-name">\(stop.productName)</p>
                <p class="hint">SKU \(stop.sku)\(stop.barcode.map { " · \($0)" } ?? "") · take \(stop.quantity)</p>
                \(scan)
                <ul class="totes">\(totes)</ul>
                <div class="actions">\(previous) \(following)</div>
                </section>
                """
        }
        let complete: HTML =
            pickList.isOpen
            ? """
            <form method="post" action="/console/pick-lists/\(key)/complete" class="actions">
            \(csrf)<button type="submit" id="complete">Complete the list</button>
            </form>
            """ : "<p class=\"hint\">This list is completed.</p>"
        return ConsolePage(
            title: "Pick mode", session: visit.session,
            body: """
                \(noticeHTML)
                \(stopHTML)
                \(complete)
                <p class="hint"><a href="/console/pick-lists/\(key)/print">Print the A4 sheet</a></p>
                """,
            scripts: ["pick.js"], bodyClass: "pick"
        ).response(status: status)
    }
}
