import Foundation
import FulfilmentDomain

/// The coupons report's numbers as CSV (issue 46), the same the page's table shows: money in the
/// currency's major units with its decimals, the currency named in the header.
enum CouponsReportCSV {
    static func coupons(_ report: CouponReport) -> String {
        let currency = report.currency
        let rows = report.coupons.map { line in
            let bucket = line.redeemed
            return
                "\(ReportFrame.csvField(line.code)),\(line.chainWide ? "chain" : "store"),\(bucket.orders),\(MoneyText.plain(bucket.discount, currency)),\(MoneyText.plain(bucket.sales, currency)),\(MoneyText.plain(bucket.averageBasket, currency)),\(line.givenBack)\r\n"
        }
        return "coupon,whose,orders,discount (\(currency)),sales (\(currency)),average basket (\(currency)),given back\r\n" + rows.joined()
    }
}
