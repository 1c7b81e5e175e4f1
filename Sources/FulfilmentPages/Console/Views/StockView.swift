import Foundation
import FulfilmentDomain

/// Stock, for managers, shown by `GET /console/stock` (the reorder report, or the products
/// matching `?q=`) and after each of its forms (`POST /console/stock/{productId}/level`,
/// `/location`, `/minimum-age`): each product with where it is, its stock and its minimum age,
/// each with its form. Adding staff is on the People page.
enum StockView {
    /// `text` is the search as typed (empty: the reorder report); each product comes with its minimum ages.
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, text: String,
        products: [(product: ProductRecord, minimumAge: ProductMinimumAge)], checks: [StockCheck] = []
    ) -> ConsolePage {
        let rows = products.map { stockRow($0.product, minimumAge: $0.minimumAge, query: text, csrf: csrf) }
        let noticeHTML = notice.map { $0.render(id: "stock-note") } ?? .empty
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"hint\">Nothing to show.</p>"
            : """
            <table id="stock" class="cards"><thead><tr><th>Product</th><th>Where</th><th>Stock</th><th>Age</th></tr></thead><tbody>\(rows)</tbody></table>
            """
        let heading = text.isEmpty ? "Reorder report: at or below minimum supply" : "Products matching “\(text)”"
        return ConsolePage(
            title: "Stock", session: session,
            body: """
                <h1>Stock</h1>
                \(noticeHTML)
                <form method="get" action="/console/stock" class="actions">
                <label for="q">Find a product</label>
                <input id="q" name="q" value="\(text)" placeholder="name, SKU or barcode">
                <button type="submit">Search</button>
                <a class="button secondary" href="/console/stock">Reorder report</a>
                </form>
                \(Self.checksSection(checks))
                <h2>\(heading)</h2>
                \(table)
                """
        )
    }

    /// One product's row; its age form sets the store's own age, at least the chain's.
    private static func stockRow(_ product: ProductRecord, minimumAge ages: ProductMinimumAge, query: String, csrf: HTML) -> HTML {
        let stock = product.stock
        let base = "/console/stock/\(product.id)"
        let keep: HTML = "\(csrf)<input type=\"hidden\" name=\"q\" value=\"\(query)\">"
        let location = stock?.location
        return """
            <tr id="product-\(product.sku)">
            <td><strong>\(product.name)</strong><br><span class="hint">SKU \(product.sku)\(product.barcode.map { " · \($0)" } ?? "")</span></td>
            <td data-label="Where">\(location?.sentence ?? LocationRecord.notLocatedSentence)
            <form method="post" action="\(base)/location" class="fields">\(keep)
            <label class="field">Aisle <input name="aisleCode" value="\(location?.aisleCode ?? "")" size="4"></label>
            <label class="field">Bay <input name="bay" type="number" value="\(location?.bay.map(String.init) ?? "")"></label>
            <label class="field">Shelf <input name="shelf" value="\(location?.shelf ?? "")" size="3"></label>
            <button type="submit">Move</button></form></td>
            <td data-label="Stock">\(stock.map { "\($0.onHand) on hand, \($0.reserved) held" } ?? "not carried")
            <form method="post" action="\(base)/level" class="fields">\(keep)
            <input name="expectedOnHand" type="hidden" value="\(stock?.onHand ?? 0)">
            <label class="field">On hand <input name="onHand" type="number" min="0" value="\(stock?.onHand ?? 0)" class="count"></label>
            <label class="field">Minimum <input name="minSupply" type="number" min="0" value="\(stock?.minSupply ?? 0)" class="count"></label>
            <button type="submit">Set</button></form></td>
            <td data-label="Age">\(ages.holding.map { "\($0)+" } ?? "none")\(ages.chain.map { " (chain: \($0)+)" } ?? "")
            <form method="post" action="\(base)/minimum-age" class="fields">\(keep)
            <label class="field">This store <input name="minimumAge" type="number" min="1" max="120" value="\(ages.store.map(String.init) ?? "")"></label>
            <button type="submit">Set</button></form></td>
            </tr>
            """
    }

    /// The products to count (issue 46): each picked short since its last count, latest first,
    /// with a link to it (its SKU searched) where its on hand is set.
    static func checksSection(_ checks: [StockCheck]) -> HTML {
        guard !checks.isEmpty else { return .empty }
        let items = checks.map { check -> HTML in
            let query = check.sku.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? check.sku
            let times = check.shortPicks == 1 ? "once" : "\(check.shortPicks) times"
            return """
                <li id="check-\(check.productID.description)"><a href="/console/stock?q=\(query)"><strong>\(check.name)</strong></a>
                <span class="hint">SKU \(check.sku)</span>: on hand says \(check.onHand); picked short \(times), last \(TimeText.format(check.askedAt)).</li>
                """
        }
        return """
            <section id="stock-checks" class="notice notice-refused">
            <h2>Count these</h2>
            <p>Picks came up short: the shelf held less than on hand says. Count each and set its on hand; it leaves this list.</p>
            <ul>\(HTML.join(items))</ul>
            </section>
            """
    }
}
