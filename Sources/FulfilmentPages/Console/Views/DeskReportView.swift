import Foundation
import FulfilmentDomain

/// The desk report's page (issue 46): how long customers waited from "I'm here" to being handed
/// their order, over the range and per hour of the day they arrived, as a chart drawn on the
/// server with its table, and as CSV.
enum DeskReportView {
    static let path = "/console/reports/desk"

    static func page(
        session: ConsoleSession, chosen: ReportFrame.Chosen, stores: [StoreRecord], report: DeskReport?, notice: Notice?
    ) -> ConsolePage {
        ConsolePage(
            title: "Desk report", session: session,
            body: """
                \(ReportFrame.nav(current: path, chosen, range: report?.range))
                <h1>At the desk and the kerb</h1>
                <p class="hint" id="desk-scope">From the customer's “I'm here” to the order in their hands, for customers who said they had arrived in these days. Orders collected without an “I'm here” are not counted.</p>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: path, chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: DeskReport) -> HTML {
        let dayLabel = SalesReportView.dayLabel
        let hourLabel = SalesReportView.hourLabel
        let bars = report.hours.enumerated().map { hour, bucket in
            BarChart.Bar(title: "\(hourLabel(hour)): \(summary(bucket))", value: Int64(((bucket.wait.p50 ?? 0) * 10).rounded()))
        }
        let longest = report.hours.enumerated().filter { $0.element.wait.p50 != nil }.max { ($0.element.wait.p50 ?? 0) < ($1.element.wait.p50 ?? 0) }
        let chart = BarChart(
            id: "wait-by-hour", title: "Median wait, by the hour the customer arrived", bars: bars, first: "00:00", last: "23:00",
            highest: longest.map { "Longest: \(hourLabel($0.offset)), median \(ReportFrame.minutes($0.element.wait.p50))" } ?? "No arrivals")
        let rows = report.hours.enumerated().map { hour, bucket -> HTML in
            """
            <tr><th scope="row" data-label="Arrived">\(hourLabel(hour))</th><td data-label="Customers">\(bucket.arrived)</td>\
            <td data-label="Handed over">\(bucket.wait.count)</td><td data-label="Median">\(ReportFrame.minutes(bucket.wait.p50))</td>\
            <td data-label="90%">\(ReportFrame.minutes(bucket.wait.p90))</td></tr>
            """
        }
        let query = ReportFrame.csvQuery(store: report.store, range: report.range)
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>Customers who said “I'm here”</dt><dd id="total-arrived">\(report.total.arrived)</dd>
            <dt>Handed their order</dt><dd id="total-handed-over">\(report.total.wait.count)</dd>
            <dt>Median wait</dt><dd id="wait-p50">\(ReportFrame.minutes(report.total.wait.p50))</dd>
            <dt>90% waited at most</dt><dd id="wait-p90">\(ReportFrame.minutes(report.total.wait.p90))</dd>
            </dl>
            <h2>By the hour they arrived</h2>
            \(chart.svg)
            <p><a href="\(path).csv?\(query)&amp;by=hour" id="csv-hours" download>Download per hour (CSV)</a></p>
            <details id="hours-table"><summary>The numbers, hour by hour</summary>
            <table class="cards compact"><caption>Wait from “I'm here” to hand-over, by the hour the customer arrived</caption>
            <thead><tr><th scope="col">Arrived</th><th scope="col">Customers</th><th scope="col">Handed over</th><th scope="col">Median</th><th scope="col">90% within</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            </details>
            """
    }

    private static func summary(_ bucket: DeskReport.Bucket) -> String {
        guard bucket.wait.count > 0 else { return "\(bucket.arrived) arrived, none handed over" }
        return "median \(ReportFrame.minutes(bucket.wait.p50)), 90% within \(ReportFrame.minutes(bucket.wait.p90)) (\(bucket.wait.count) handed over)"
    }
}
