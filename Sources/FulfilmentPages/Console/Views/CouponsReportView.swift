import Foundation
import FulfilmentDomain

/// The coupons report's page (issue 46): over the orders placed in the range, the orders each
/// coupon was redeemed on and the discount given, as a chart drawn on the server with its table
/// and as CSV, and the average basket with a coupon against without (the uplift).
enum CouponsReportView {
    static let path = "/console/reports/coupons"

    static func page(
        session: ConsoleSession, chosen: ReportFrame.Chosen, stores: [StoreRecord], report: CouponReport?, notice: Notice?
    ) -> ConsolePage {
        ConsolePage(
            title: "Coupons report", session: session,
            body: """
                \(ReportFrame.nav(current: path, chosen, range: report?.range))
                <h1>Coupons</h1>
                <p class="hint" id="coupons-scope">Orders placed in these days. A cancelled or expired order gives its coupon back and is counted apart. The uplift compares the average basket of the orders with a coupon to that of the orders without one, both after their discount.</p>
                \(notice.map { $0.render(id: "report-note") } ?? .empty)
                \(ReportFrame.rangeForm(action: path, chosen, range: report?.range, stores: stores))
                \(report.map(body) ?? (chosen.store == nil ? "<p class=\"hint\">Choose a store.</p>" as HTML : .empty))
                """)
    }

    static func body(_ report: CouponReport) -> HTML {
        let dayLabel = SalesReportView.dayLabel
        let money = { (amount: Int64) in MoneyText.format(amount, report.currency) }
        let bars = report.coupons.map { line in
            BarChart.Bar(
                title: "\(line.code): \(orders(line.redeemed.orders)), \(money(line.redeemed.discount)) off", value: Int64(line.redeemed.orders))
        }
        let most = report.coupons.first.map { "Most redeemed: \($0.code), \(orders($0.redeemed.orders))" } ?? ""
        let rows = report.coupons.map { line -> HTML in
            """
            <tr><th scope="row" data-label="Coupon">\(line.code)</th><td data-label="Whose">\(line.chainWide ? "The chain's" : "This store's")</td>\
            <td data-label="Orders">\(line.redeemed.orders)</td><td data-label="Discount" class="amount">\(money(line.redeemed.discount))</td>\
            <td data-label="Sales" class="amount">\(money(line.redeemed.sales))</td>\
            <td data-label="Average" class="amount">\(money(line.redeemed.averageBasket))</td><td data-label="Given back">\(line.givenBack)</td></tr>
            """
        }
        let query = ReportFrame.csvQuery(store: report.store, range: report.range)
        let coupons: HTML =
            report.coupons.isEmpty
            ? "<p class=\"hint\" id=\"no-coupons\">No coupon was redeemed on these days' orders.</p>"
            : """
            \(BarChart(id: "redemptions-by-coupon", title: "Orders per coupon", bars: bars, first: report.coupons.first?.code ?? "", last: report.coupons.last?.code ?? "", highest: most).svg)
            <p><a href="\(path).csv?\(query)&amp;by=coupon" id="csv-coupons" download>Download per coupon (CSV)</a></p>
            <table class="cards compact" id="coupons-table"><caption>Redemptions per coupon, the most redeemed first\(report.couponCount > report.coupons.count ? " (the first \(report.coupons.count) of \(report.couponCount))" : "")</caption>
            <thead><tr><th scope="col">Coupon</th><th scope="col">Whose</th><th scope="col">Orders</th><th scope="col">Discount</th><th scope="col">Sales</th><th scope="col">Average basket</th><th scope="col">Given back</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
        return """
            <dl class="facts" id="report-totals">
            <dt>Days</dt><dd>\(dayLabel(report.range.from)) to \(dayLabel(report.range.to)) (\(report.zone.identifier))</dd>
            <dt>Orders with a coupon</dt><dd id="with-coupon-orders">\(report.withCoupon.orders)</dd>
            <dt>Discount given</dt><dd id="total-discount">\(money(report.withCoupon.discount))</dd>
            <dt>Average basket with a coupon</dt><dd id="basket-with">\(money(report.withCoupon.averageBasket))</dd>
            <dt>Average basket without</dt><dd id="basket-without">\(money(report.withoutCoupon.averageBasket)) (\(orders(report.withoutCoupon.orders)))</dd>
            <dt>Uplift</dt><dd id="uplift">\(uplift(report.uplift))</dd>
            <dt>Given back</dt><dd id="given-back">\(report.givenBack)</dd>
            <dt>Coupons redeemed</dt><dd id="coupon-count">\(report.couponCount)</dd>
            </dl>
            <h2>Per coupon</h2>
            \(coupons)
            """
    }

    /// `+25%`, `-10%`, `0%`; a dash without one.
    static func uplift(_ value: Double?) -> String {
        guard let value else { return "–" }
        let percent = Int((value * 100).rounded())
        return percent > 0 ? "+\(percent)%" : "\(percent)%"
    }

    private static func orders(_ count: Int) -> String { count == 1 ? "1 order" : "\(count) orders" }
}
