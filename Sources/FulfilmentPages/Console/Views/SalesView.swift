import Foundation
import FulfilmentDomain

/// Sales, shown by `GET /console/sales` and after its forms (`POST /console/sales`,
/// `POST /console/sales/{saleId}/end`): the store's sales running, upcoming and ended; for a
/// manager, an End button on each running or upcoming one and the form that puts a product on sale.
enum SalesView {
    /// The lists the page shows, in order, with their headings.
    static let groups: [(state: Sale.State, title: String)] = [(.running, "Running"), (.upcoming, "Upcoming"), (.ended, "Ended")]

    /// `sales` by state (those of ``groups``); `manages` adds the End buttons and the form, which
    /// offers `saleProducts` (the store's first 100 by name).
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, sales: [Sale.State: [Sale]], manages: Bool, saleProducts: [ProductRecord]
    ) -> ConsolePage {
        var sections: [HTML] = []
        for (state, title) in groups {
            let rows = (sales[state] ?? []).map { saleRow($0, csrf: manages ? csrf : nil) }
            let table: HTML =
                rows.isEmpty
                ? "<p class=\"hint\">None.</p>"
                : """
                <table id="sales-\(state.rawValue)" class="cards"><thead><tr><th>Product</th><th>Sale price</th><th>Regular price</th><th>From</th><th>Until</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table>
                """
            sections.append("<h2>\(title)</h2>\n\(table)")
        }
        let form = manages ? saleForm(saleProducts, csrf: csrf) : .empty
        return ConsolePage(
            title: "Sales", session: session,
            body: """
                <h1>Sales</h1>
                \(notice.map { $0.render(id: "sale-note") } ?? .empty)
                \(HTML.join(sections))
                \(form)
                """
        )
    }

    /// The form that puts one of the store's products (its first 100 by name) on sale.
    private static func saleForm(_ range: [ProductRecord], csrf: HTML) -> HTML {
        let options = range.map { product -> HTML in
            "<option value=\"\(product.id.description)\">\(product.name) (\(MoneyText.format(product.priceAmount, product.currency)))</option>"
        }
        return """
            <h2>Put a product on sale</h2>
            <form method="post" action="/console/sales" class="fields roomy" id="new-sale">
            \(csrf)
            <label class="field wide">Product <select name="productId" required>\(HTML.join(options))</select></label>
            <label class="field short">Sale price <input name="price" inputmode="decimal" size="8" placeholder="450.00" required></label>
            <label class="field">From (\(TimeText.zoneLabel())) <input name="startsAt" type="datetime-local" required></label>
            <label class="field">Until (\(TimeText.zoneLabel())) <input name="endsAt" type="datetime-local" required></label>
            <button type="submit">Put on sale</button>
            </form>
            """
    }

    /// A sale's row; with `csrf` (a manager's page), an End button while it runs or is to come.
    private static func saleRow(_ sale: Sale, csrf: HTML?) -> HTML {
        var end: HTML = sale.endedEarly ? "ended early" : .empty
        if let csrf, sale.state == .running || sale.state == .upcoming {
            end = """
                <form method="post" action="/console/sales/\(sale.id.description)/end">\(csrf)<button type="submit" class="secondary">End</button></form>
                """
        }
        return """
            <tr id="sale-\(sale.id.description)">
            <td><strong>\(sale.productName)</strong></td>
            <td data-label="Sale price">\(MoneyText.format(sale.price.amount, sale.price.currency))</td>
            <td data-label="Regular price">\(MoneyText.format(sale.regularPrice.amount, sale.regularPrice.currency))</td>
            <td data-label="From">\(TimeText.format(sale.startsAt))</td>
            <td data-label="Until">\(TimeText.format(sale.endsAt))</td>
            <td>\(end)</td>
            </tr>
            """
    }
}
