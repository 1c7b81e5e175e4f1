import Foundation
import FulfilmentDomain

/// The picking report's page (issue 46): over the pick lists completed in the range, lines picked
/// per hour of the lists' time, the share closed short, the substitutes given and what customers
/// made of them, and the products most often substituted. Per day, a chart drawn on the server
/// with its table, and each as CSV.
enum PickingReportView {
    static let path = "/console/reports/picking"

    static func page(
        session: ConsoleSession, chosen: ReportFrame.Chosen, stores: [StoreRecord], report: PickingReport?, notice: Notice?
    ) -> ConsolePage {
        ConsolePage(
            title: "Picking report", session: session,
            body: """
                \(ReportFrame.nav(current: path, chosen, range: report?.range))
                <h1>Picking</h1>
                <p class="hint" id="picking-scope">Pick lists completed in these days. A line is one product of one order, however many scans it took; a list's time runs from its making to its completion. Substitutes are those given on the lists' orders.</p>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: path, chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: PickingReport) -> HTML {
        let dayLabel = SalesReportView.dayLabel
        let bars = report.days.map { row in
            BarChart.Bar(title: "\(dayLabel(row.day)): \(summary(row.bucket))", value: Int64(((row.bucket.linesPerHour ?? 0) * 10).rounded()))
        }
        let fastest = report.days.filter { $0.bucket.linesPerHour != nil }.max { ($0.bucket.linesPerHour ?? 0) < ($1.bucket.linesPerHour ?? 0) }
        let chart = BarChart(
            id: "lines-per-hour-by-day", title: "Lines picked per hour, per day", bars: bars, first: dayLabel(report.range.from),
            last: dayLabel(report.range.to),
            highest: fastest.map { "Fastest: \(dayLabel($0.day)), \(rate($0.bucket.linesPerHour)) lines an hour" } ?? "No pick lists completed")
        let dayRows = report.days.map { row -> HTML in
            """
            <tr><th scope="row" data-label="Day">\(dayLabel(row.day))</th><td data-label="Lists">\(row.bucket.pickLists)</td>\
            <td data-label="Lines">\(row.bucket.lines)</td><td data-label="Per hour">\(rate(row.bucket.linesPerHour))</td>\
            <td data-label="Short">\(row.bucket.short) (\(ReportFrame.percent(row.bucket.shortShare)))</td></tr>
            """
        }
        let productRows = report.mostSubstituted.map { product -> HTML in
            let counts = product.substitutions
            return """
                <tr><th scope="row" data-label="Product">\(product.name)</th><td data-label="Substituted">\(counts.proposed)</td>\
                <td data-label="Accepted">\(counts.accepted)</td><td data-label="Refused">\(counts.refused)</td>\
                <td data-label="Awaiting">\(counts.awaiting)</td></tr>
                """
        }
        let products: HTML =
            report.mostSubstituted.isEmpty
            ? "<p class=\"hint\" id=\"no-substitutions\">No substitute was given on these lists' orders.</p>"
            : """
            <table class="cards compact" id="substituted-table"><caption>The products most often substituted (at most \(PickingReport.topProducts))</caption>
            <thead><tr><th scope="col">Product</th><th scope="col">Substituted</th><th scope="col">Accepted</th><th scope="col">Refused</th><th scope="col">Awaiting</th></tr></thead>
            <tbody>\(HTML.join(productRows))</tbody></table>
            <p><a href="\(path).csv?\(ReportFrame.csvQuery(store: report.store, range: report.range))&amp;by=product" id="csv-products" download>Download the most-substituted products (CSV)</a></p>
            """
        let subs = report.substitutions
        let query = ReportFrame.csvQuery(store: report.store, range: report.range)
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>Pick lists completed</dt><dd id="total-lists">\(report.total.pickLists)</dd>
            <dt>Lines picked</dt><dd id="total-lines">\(report.total.lines)</dd>
            <dt>Lines per hour</dt><dd id="lines-per-hour">\(rate(report.total.linesPerHour))</dd>
            <dt>Median list, lines per hour</dt><dd id="median-list-rate">\(rate(report.medianListLinesPerHour))</dd>
            <dt>Closed short</dt><dd id="total-short">\(report.total.short) (\(ReportFrame.percent(report.total.shortShare)))</dd>
            <dt>Substitutes given</dt><dd id="subs-proposed">\(subs.proposed) (\(ReportFrame.percent(report.substitutionRate)) of lines)</dd>
            <dt>Accepted</dt><dd id="subs-accepted">\(subs.accepted) (\(ReportFrame.percent(subs.acceptedShare)))</dd>
            <dt>Refused</dt><dd id="subs-refused">\(subs.refused) (\(ReportFrame.percent(subs.refusedShare)))</dd>
            <dt>Awaiting the customer</dt><dd id="subs-awaiting">\(subs.awaiting)</dd>
            </dl>
            <h2>Per day</h2>
            \(chart.svg)
            <p><a href="\(path).csv?\(query)&amp;by=day" id="csv-days" download>Download per day (CSV)</a></p>
            <details id="days-table"><summary>The numbers, day by day</summary>
            <table class="cards compact"><caption>Picking per day (the day a list was completed)</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Lists</th><th scope="col">Lines</th><th scope="col">Lines per hour</th><th scope="col">Closed short</th></tr></thead>
            <tbody>\(HTML.join(dayRows))</tbody></table>
            </details>
            <h2>Most substituted</h2>
            \(products)
            """
    }

    /// `12.5`: lines per hour to a tenth; a dash without one.
    static func rate(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }

    private static func summary(_ bucket: PickingReport.Bucket) -> String {
        guard bucket.pickLists > 0 else { return "no pick lists" }
        return "\(rate(bucket.linesPerHour)) lines an hour (\(bucket.lines) lines on \(bucket.pickLists) \(bucket.pickLists == 1 ? "list" : "lists"))"
    }
}
