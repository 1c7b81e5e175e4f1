import Foundation
import FulfilmentDomain

/// The on-time report's page (issue 46): were orders packed before their pickup slot started?
/// The totals and how long packing and collecting took, then per day and per hour of the slot's
/// start the share on time as a chart drawn on the server with its table, and each as CSV.
/// Orders without a slot are not in it, and the page says so.
enum OnTimeReportView {
    static let path = "/console/reports/on-time"

    static func page(
        session: ConsoleSession, chosen: ReportFrame.Chosen, stores: [StoreRecord], report: OnTimeReport?, notice: Notice?
    ) -> ConsolePage {
        ConsolePage(
            title: "On-time report", session: session,
            body: """
                \(ReportFrame.nav(current: path, chosen, range: report?.range))
                <h1>Ready on time</h1>
                <p class="hint" id="on-time-scope">Orders whose pickup slot starts in these days. An order is on time when it was packed by the start of its slot. Orders without a slot are not counted here; cancelled orders are counted apart.</p>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: path, chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: OnTimeReport) -> HTML {
        let dayLabel = SalesReportView.dayLabel
        let hourLabel = SalesReportView.hourLabel
        let dayBars = report.days.map { row in
            BarChart.Bar(title: "\(dayLabel(row.day)): \(summary(row.bucket))", value: permille(row.bucket.onTimeShare))
        }
        let worstDay = report.days.filter { $0.bucket.onTimeShare != nil }.min { permille($0.bucket.onTimeShare) < permille($1.bucket.onTimeShare) }
        let dayChart = BarChart(
            id: "on-time-by-day", title: "Share ready on time, per day", bars: dayBars, first: dayLabel(report.range.from),
            last: dayLabel(report.range.to),
            highest: worstDay.map { "Top of the scale: 100%. Worst day: \(dayLabel($0.day)), \(ReportFrame.percent($0.bucket.onTimeShare))" }
                ?? "No slots")
        let hourBars = report.hours.enumerated().map { hour, bucket in
            BarChart.Bar(title: "\(hourLabel(hour)): \(summary(bucket))", value: permille(bucket.onTimeShare))
        }
        let worstHour = report.hours.enumerated().filter { $0.element.onTimeShare != nil }
            .min { permille($0.element.onTimeShare) < permille($1.element.onTimeShare) }
        let hourChart = BarChart(
            id: "on-time-by-hour", title: "Share ready on time, by the hour the slot starts", bars: hourBars, first: "00:00", last: "23:00",
            highest: worstHour.map { "Top of the scale: 100%. Worst hour: \(hourLabel($0.offset)), \(ReportFrame.percent($0.element.onTimeShare))" }
                ?? "No slots")
        let dayRows = report.days.map { row -> HTML in
            "<tr><th scope=\"row\" data-label=\"Day\">\(dayLabel(row.day))</th>\(cells(row.bucket))</tr>"
        }
        let hourRows = report.hours.enumerated().map { hour, bucket -> HTML in
            "<tr><th scope=\"row\" data-label=\"Slot starts\">\(hourLabel(hour))</th>\(cells(bucket))</tr>"
        }
        let query = ReportFrame.csvQuery(store: report.store, range: report.range)
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>On time</dt><dd id="total-on-time">\(report.total.onTime)</dd>
            <dt>Late</dt><dd id="total-late">\(report.total.late)</dd>
            <dt>Share on time</dt><dd id="on-time-share">\(ReportFrame.percent(report.total.onTimeShare))</dd>
            <dt>Not packed yet, slot to come</dt><dd id="total-not-yet-due">\(report.total.notYetDue)</dd>
            <dt>Cancelled</dt><dd id="total-cancelled">\(report.total.cancelled)</dd>
            <dt>Placed to packed</dt><dd id="placed-to-ready">\(durations(report.placedToReady))</dd>
            <dt>Packed to handed over</dt><dd id="ready-to-collected">\(durations(report.readyToCollected))</dd>
            </dl>
            <h2>Per day</h2>
            \(dayChart.svg)
            <p><a href="\(path).csv?\(query)&amp;by=day" id="csv-days" download>Download per day (CSV)</a></p>
            <details id="days-table"><summary>The numbers, day by day</summary>
            \(table("Ready on time, per day", "Day", dayRows))
            </details>
            <h2>By the hour the slot starts</h2>
            \(hourChart.svg)
            <p><a href="\(path).csv?\(query)&amp;by=hour" id="csv-hours" download>Download per hour (CSV)</a></p>
            <details id="hours-table"><summary>The numbers, hour by hour</summary>
            \(table("Ready on time, by the hour the slot starts", "Slot starts", hourRows))
            </details>
            """
    }

    /// `median 12.5 min, 90% within 40.0 min (30 orders)`.
    static func durations(_ figures: MinutePercentiles) -> String {
        guard figures.count > 0 else { return "no orders" }
        return
            "median \(ReportFrame.minutes(figures.p50)), 90% within \(ReportFrame.minutes(figures.p90)) (\(figures.count) \(figures.count == 1 ? "order" : "orders"))"
    }

    /// A share as a bar's height: thousandths, so 100% is always the top when any day has it.
    private static func permille(_ share: Double?) -> Int64 { Int64(((share ?? 0) * 1000).rounded()) }

    private static func summary(_ bucket: OnTimeReport.Bucket) -> String {
        "\(ReportFrame.percent(bucket.onTimeShare)) on time (\(bucket.onTime) on time, \(bucket.late) late)"
    }

    private static func table(_ caption: String, _ first: String, _ rows: [HTML]) -> HTML {
        """
        <table class="cards compact"><caption>\(caption)</caption>
        <thead><tr><th scope="col">\(first)</th><th scope="col">On time</th><th scope="col">Late</th><th scope="col">Share on time</th><th scope="col">Slot to come</th><th scope="col">Cancelled</th></tr></thead>
        <tbody>\(HTML.join(rows))</tbody></table>
        """
    }

    private static func cells(_ bucket: OnTimeReport.Bucket) -> HTML {
        """
        <td data-label="On time">\(bucket.onTime)</td><td data-label="Late">\(bucket.late)</td>\
        <td data-label="Share on time">\(ReportFrame.percent(bucket.onTimeShare))</td>\
        <td data-label="Slot to come">\(bucket.notYetDue)</td><td data-label="Cancelled">\(bucket.cancelled)</td>
        """
    }
}
