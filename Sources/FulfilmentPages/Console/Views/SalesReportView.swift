import Foundation
import FulfilmentDomain

/// The sales report's page (issue 46): the range chosen, the totals, then per day and per hour a
/// chart drawn on the server with its table, and each as CSV. The chain's admin first chooses a
/// store.
enum SalesReportView {
    typealias Chosen = ReportFrame.Chosen

    static func page(session: ConsoleSession, chosen: Chosen, stores: [StoreRecord], report: SalesReport?, notice: Notice?) -> ConsolePage {
        ConsolePage(
            title: "Sales report", session: session,
            body: """
                \(ReportFrame.nav(current: "/console/reports/sales", chosen, range: report?.range))
                <h1>Sales</h1>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: "/console/reports/sales", chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: SalesReport) -> HTML {
        let money = { (amount: Int64) in MoneyText.format(amount, report.currency) }
        let dayBars = report.days.map { row in
            BarChart.Bar(title: "\(dayLabel(row.day)): \(orders(row.bucket.orders)), \(money(row.bucket.sales))", value: row.bucket.sales)
        }
        let busiest = report.days.max { $0.bucket.sales < $1.bucket.sales }
        let dayChart = BarChart(
            id: "sales-by-day", title: "Sales per day", bars: dayBars, first: dayLabel(report.range.from), last: dayLabel(report.range.to),
            highest: busiest.map { $0.bucket.sales > 0 ? "Best day: \(dayLabel($0.day)), \(money($0.bucket.sales))" : "No sales" } ?? "")
        let hourBars = report.hours.enumerated().map { hour, bucket in
            BarChart.Bar(title: "\(hourLabel(hour)): \(orders(bucket.orders)), \(money(bucket.sales))", value: Int64(bucket.orders))
        }
        let busiestHour = report.hours.enumerated().max { $0.element.orders < $1.element.orders }
        let hourChart = BarChart(
            id: "orders-by-hour", title: "Orders by the hour they were placed", bars: hourBars, first: "00:00", last: "23:00",
            highest: busiestHour.map { $0.element.orders > 0 ? "Busiest hour: \(hourLabel($0.offset)), \(orders($0.element.orders))" : "No orders" }
                ?? "")
        let dayRows = report.days.map { row -> HTML in
            "<tr><th scope=\"row\" data-label=\"Day\">\(dayLabel(row.day))</th>\(cells(row.bucket, money))</tr>"
        }
        let hourRows = report.hours.enumerated().map { hour, bucket -> HTML in
            "<tr><th scope=\"row\" data-label=\"Hour\">\(hourLabel(hour))</th>\(cells(bucket, money))</tr>"
        }
        let query = csvQuery(report)
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>Orders</dt><dd id="total-orders">\(report.total.orders)</dd>
            <dt>Sales</dt><dd id="total-sales">\(money(report.total.sales))</dd>
            <dt>Average basket</dt><dd id="average-basket">\(money(report.total.averageBasket))</dd>
            <dt>Cancelled</dt><dd id="total-cancelled">\(report.total.cancelled)</dd>
            </dl>
            <h2>Per day</h2>
            \(dayChart.svg)
            <p><a href="/console/reports/sales.csv?\(query)&amp;by=day" id="csv-days" download>Download per day (CSV)</a></p>
            <details id="days-table"><summary>The numbers, day by day</summary>
            \(table("Sales per day", "Day", dayRows))
            </details>
            <h2>Per hour of the day</h2>
            \(hourChart.svg)
            <p><a href="/console/reports/sales.csv?\(query)&amp;by=hour" id="csv-hours" download>Download per hour (CSV)</a></p>
            <details id="hours-table"><summary>The numbers, hour by hour</summary>
            \(table("Orders by the hour they were placed", "Hour", hourRows))
            </details>
            """
    }

    private static func table(_ caption: String, _ first: String, _ rows: [HTML]) -> HTML {
        """
        <table class="cards compact"><caption>\(caption)</caption>
        <thead><tr><th scope="col">\(first)</th><th scope="col">Orders</th><th scope="col">Sales</th><th scope="col">Average basket</th><th scope="col">Cancelled</th></tr></thead>
        <tbody>\(HTML.join(rows))</tbody></table>
        """
    }

    private static func cells(_ bucket: SalesReport.Bucket, _ money: (Int64) -> String) -> HTML {
        """
        <td data-label="Orders">\(bucket.orders)</td><td data-label="Sales" class="amount">\(money(bucket.sales))</td>\
        <td data-label="Average" class="amount">\(money(bucket.averageBasket))</td><td data-label="Cancelled">\(bucket.cancelled)</td>
        """
    }

    /// The CSV links' query (already escaped for the attribute by the caller's interpolation).
    private static func csvQuery(_ report: SalesReport) -> String { ReportFrame.csvQuery(store: report.store, range: report.range) }

    private static func orders(_ count: Int) -> String { count == 1 ? "1 order" : "\(count) orders" }

    static func hourLabel(_ hour: Int) -> String { String(format: "%02d:00–%02d:00", hour, (hour + 1) % 24) }

    /// `Mon 3 Nov 2026`: a store's day as its people say it.
    static func dayLabel(_ day: LocalDate) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let (year, month, date) = day.components
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: date, hour: 12)) else {
            return day.description
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "EEE d MMM yyyy"
        return formatter.string(from: date)
    }
}
