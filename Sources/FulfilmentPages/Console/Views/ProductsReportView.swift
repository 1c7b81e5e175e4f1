import Foundation
import FulfilmentDomain

/// The products report's page (issue 46): over the orders placed in the range, the best sellers
/// by units as a chart drawn on the server with its table, the items never collected, the hours
/// each product was out of stock in the range (recorded since migration 061), and what is out of
/// stock now with since when where the stock ledger says; each as CSV. The page says what the
/// product does not record (out-of-stock hours before the outages were kept).
enum ProductsReportView {
    static let path = "/console/reports/products"

    static func page(
        session: ConsoleSession, chosen: ReportFrame.Chosen, stores: [StoreRecord], report: ProductReport?, notice: Notice?
    ) -> ConsolePage {
        ConsolePage(
            title: "Products report", session: session,
            body: """
                \(ReportFrame.nav(current: path, chosen, range: report?.range))
                <h1>Products</h1>
                <p class="hint" id="products-scope">Orders placed in these days: a line counts what it holds now, at what it costs now. Never collected: the lines of orders that were cancelled, by the customer, the store or running out of time. Hours out of stock are within these days; out of stock now is how things stand now, whatever the days.</p>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: path, chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: ProductReport) -> HTML {
        let dayLabel = SalesReportView.dayLabel
        let money = { (amount: Int64) in MoneyText.format(amount, report.currency) }
        let query = ReportFrame.csvQuery(store: report.store, range: report.range)
        let bars = report.bestSellers.map { line in
            BarChart.Bar(title: "\(line.name): \(units(line.units)), \(money(line.amount))", value: Int64(line.units))
        }
        let best: HTML =
            report.bestSellers.isEmpty
            ? "<p class=\"hint\" id=\"no-sales\">Nothing was sold on these days.</p>"
            : """
            \(BarChart(id: "best-sellers", title: "Units sold, best sellers first", bars: bars, first: report.bestSellers.first?.name ?? "", last: report.bestSellers.last?.name ?? "", highest: report.bestSellers.first.map { "Best seller: \($0.name), \(units($0.units))" } ?? "").svg)
            <p><a href="\(path).csv?\(query)&amp;by=product" id="csv-best-sellers" download>Download the best sellers (CSV)</a></p>
            \(table(id: "best-sellers-table", caption: "Best sellers (at most \(ProductReport.topProducts)), the most units first", amount: "Sales", report.bestSellers, money))
            """
        let never: HTML =
            report.neverCollected.isEmpty
            ? "<p class=\"hint\" id=\"no-uncollected\">No order of these days was cancelled.</p>"
            : """
            \(table(id: "never-collected-table", caption: "Never collected (at most \(ProductReport.topProducts)), the most units first", amount: "Worth", report.neverCollected, money))
            <p><a href="\(path).csv?\(query)&amp;by=uncollected" id="csv-never-collected" download>Download what was never collected (CSV)</a></p>
            """
        let outRows = report.outOfStock.map { product -> HTML in
            """
            <tr><th scope="row" data-label="Product">\(product.name)</th><td data-label="On hand">\(product.onHand)</td>\
            <td data-label="Held">\(product.reserved)</td><td data-label="Out since">\(since(product, report))</td></tr>
            """
        }
        let out: HTML =
            report.outOfStock.isEmpty
            ? "<p class=\"hint\" id=\"no-out-of-stock\">Nothing is out of stock.</p>"
            : """
            <table class="cards compact" id="out-of-stock-table"><caption>Out of stock now\(report.outOfStockCount > report.outOfStock.count ? " (the first \(report.outOfStock.count) of \(report.outOfStockCount))" : "")</caption>
            <thead><tr><th scope="col">Product</th><th scope="col">On hand</th><th scope="col">Held by orders</th><th scope="col">Out since</th></tr></thead>
            <tbody>\(HTML.join(outRows))</tbody></table>
            <p><a href="\(path).csv?\(query)&amp;by=stock" id="csv-out-of-stock" download>Download what is out of stock (CSV)</a></p>
            """
        let hoursRows = report.outOfStockHours.map { product -> HTML in
            """
            <tr><th scope="row" data-label="Product">\(product.name)</th><td data-label="Hours out">\(hours(product.hours))</td>\
            <td data-label="Times out">\(product.outages)</td></tr>
            """
        }
        let outages: HTML =
            report.outOfStockHours.isEmpty
            ? "<p class=\"hint\" id=\"no-out-of-stock-hours\">Nothing was out of stock on these days.</p>"
            : """
            <table class="cards compact" id="out-of-stock-hours-table"><caption>Hours out of stock, the most first\(report.outOfStockHoursCount > report.outOfStockHours.count ? " (the first \(report.outOfStockHours.count) of \(report.outOfStockHoursCount))" : "")</caption>
            <thead><tr><th scope="col">Product</th><th scope="col">Hours out</th><th scope="col">Times out</th></tr></thead>
            <tbody>\(HTML.join(hoursRows))</tbody></table>
            <p><a href="\(path).csv?\(query)&amp;by=outages" id="csv-out-of-stock-hours" download>Download the hours out of stock (CSV)</a></p>
            """
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>Units sold</dt><dd id="units-sold">\(report.sold.units) (\(report.sold.products) products)</dd>
            <dt>Sales</dt><dd id="product-sales">\(money(report.sold.amount))</dd>
            <dt>Never collected</dt><dd id="units-uncollected">\(units(report.uncollected.units)) on \(report.uncollected.orders) cancelled \(report.uncollected.orders == 1 ? "order" : "orders"), worth \(money(report.uncollected.amount))</dd>
            <dt>Out of stock now</dt><dd id="out-of-stock-count">\(report.outOfStockCount)</dd>
            </dl>
            <h2>Best sellers</h2>
            \(best)
            <h2>Never collected</h2>
            \(never)
            <h2>Out of stock on these days</h2>
            <p class="hint" id="out-of-stock-hours-note">From when nothing was left to sell (on hand less what open orders hold) until there was again, up to now; recorded since the outages were first kept, not before.</p>
            \(outages)
            <h2>Out of stock now</h2>
            <p class="hint" id="out-of-stock-note">Since when only where the stock ledger left it at zero (a count, breakage, a correction): stock that runs out by collections is not in the ledger; the hours out on these days are above.</p>
            \(out)
            """
    }

    private static func table(id: String, caption: String, amount: String, _ lines: [ProductReport.Line], _ money: (Int64) -> String) -> HTML {
        let rows = lines.map { line -> HTML in
            """
            <tr><th scope="row" data-label="Product">\(line.name)</th><td data-label="Units">\(line.units)</td>\
            <td data-label="Lines">\(line.lines)</td><td data-label="\(amount)" class="amount">\(money(line.amount))</td></tr>
            """
        }
        return """
            <table class="cards compact" id="\(id)"><caption>\(caption)</caption>
            <thead><tr><th scope="col">Product</th><th scope="col">Units</th><th scope="col">Order lines</th><th scope="col">\(amount)</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
    }

    /// `Mon 2 Nov 2026 (26 h)` on the store's calendar; a sentence without a start.
    private static func since(_ product: ProductReport.OutOfStock, _ report: ProductReport) -> String {
        guard let since = product.since, let hours = report.hoursOut(product) else {
            return product.onHand > 0 ? "all held by orders" : "not recorded"
        }
        return "\(SalesReportView.dayLabel(LocalDate(since, in: report.zone))) (\(hours) h)"
    }

    /// `3.5 h`, to a tenth.
    private static func hours(_ value: Double) -> String { "\(value) h" }

    private static func units(_ count: Int) -> String { count == 1 ? "1 unit" : "\(count) units" }
}
