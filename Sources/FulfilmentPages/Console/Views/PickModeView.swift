import Foundation
import FulfilmentDomain
import PickList

/// Pick mode for a 360 px handheld, shown by `GET /console/pick-lists/{id}/pick` and after each
/// pick or substitution (`POST /console/pick-lists/{id}/picks`, `/substitutions`): one stop at a
/// time in route order, the scan box, a quantity per tote, "Short", "Substitute", and completing the list.
enum PickModeView {
    /// `stops` are the list's route; `number` the stop shown (1-based, within the route).
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, pickList: PickListRecord, stops: [PickStop], number: Int,
        unpickedToConfirm: Int? = nil
    ) -> ConsolePage {
        let progress = pickList.lineIndex
        let key = pickList.id.description
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
        let complete: HTML
        if let unpicked = unpickedToConfirm, pickList.isOpen {
            // Asked before a list with stops still to pick is closed: their lines stay unpicked.
            let stopsText = unpicked == 1 ? "1 stop" : "\(unpicked) stops"
            complete = """
                <section class="confirm" id="confirm-complete" role="alertdialog" aria-labelledby="confirm-complete-text">
                <p class="notice notice-refused" id="confirm-complete-text">\(stopsText) of \(stops.count) not picked yet. Complete the list anyway? What is not picked stays unpicked, and those orders stay pending.</p>
                <form method="post" action="/console/pick-lists/\(key)/complete" class="actions">
                \(csrf)<input type="hidden" name="confirm" value="yes">
                <button type="submit" id="complete-anyway">Complete with \(stopsText) unpicked</button>
                <a class="button secondary" id="keep-picking" href="/console/pick-lists/\(key)/pick">Keep picking</a>
                </form>
                </section>
                """
        } else if pickList.isOpen {
            complete = """
                <form method="post" action="/console/pick-lists/\(key)/complete" class="actions">
                \(csrf)<button type="submit" id="complete">Complete the list</button>
                </form>
                """
        } else {
            complete = "<p class=\"hint\">This list is completed.</p>"
        }
        return ConsolePage(
            title: "Pick mode", session: session,
            body: """
                <h1 class="visually-hidden">Picking</h1>
                \(noticeHTML)
                \(unpickedToConfirm != nil ? complete : .empty)
                \(stopHTML)
                \(unpickedToConfirm == nil ? complete : .empty)
                <p class="hint"><a href="/console/pick-lists/\(key)/print">Print the A4 sheet</a></p>
                """,
            scripts: ["pick.js"], bodyClass: "pick"
        )
    }

    /// A tote's "give something else" form (issue 27): scan the substitute, say how many. Not for
    /// a line whose customer said no substitutes.
    private static func substituteForm(
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
}
