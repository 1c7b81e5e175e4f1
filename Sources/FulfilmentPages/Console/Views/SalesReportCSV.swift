import Foundation
import FulfilmentDomain

/// The sales report's numbers as CSV (issue 46), the same the page's tables show: money in the
/// currency's major units with its decimals (a spreadsheet sums them as they are), the currency
/// named in the header.
enum SalesReportCSV {
    static func days(_ report: SalesReport) -> String {
        let rows = report.days.map { row(String(describing: $0.day), $0.bucket, report.currency) }
        return header("date", report.currency) + rows.joined()
    }

    static func hours(_ report: SalesReport) -> String {
        let rows = report.hours.enumerated().map { hour, bucket in row(String(format: "%02d:00", hour), bucket, report.currency) }
        return header("hour (\(report.zone.identifier))", report.currency) + rows.joined()
    }

    private static func header(_ first: String, _ currency: String) -> String {
        "\(first),orders,sales (\(currency)),average basket (\(currency)),cancelled\r\n"
    }

    private static func row(_ first: String, _ bucket: SalesReport.Bucket, _ currency: String) -> String {
        "\(first),\(bucket.orders),\(MoneyText.plain(bucket.sales, currency)),\(MoneyText.plain(bucket.averageBasket, currency)),\(bucket.cancelled)\r\n"
    }
}
