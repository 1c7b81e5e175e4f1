import Foundation
import FulfilmentDomain

/// The products report's numbers as CSV (issue 46), the same the page's tables show: the best
/// sellers, what was never collected, the hours out of stock in the range, what is out of stock
/// now (names quoted as CSV needs).
enum ProductsReportCSV {
    static func bestSellers(_ report: ProductReport) -> String { lines(report.bestSellers, "sales", report.currency) }

    static func neverCollected(_ report: ProductReport) -> String { lines(report.neverCollected, "worth", report.currency) }

    static func outOfStock(_ report: ProductReport) -> String {
        let formatter = ISO8601DateFormatter()
        let rows = report.outOfStock.map { product in
            "\(ReportFrame.csvField(product.name)),\(product.product),\(product.onHand),\(product.reserved),\(product.since.map(formatter.string) ?? ""),\(report.hoursOut(product).map(String.init) ?? "")\r\n"
        }
        return "product,product id,on hand,held by orders,out since,hours out\r\n" + rows.joined()
    }

    static func outOfStockHours(_ report: ProductReport) -> String {
        let rows = report.outOfStockHours.map { product in
            "\(ReportFrame.csvField(product.name)),\(product.product),\(product.hours),\(product.outages)\r\n"
        }
        return "product,product id,hours out of stock,times out\r\n" + rows.joined()
    }

    private static func lines(_ lines: [ProductReport.Line], _ amount: String, _ currency: String) -> String {
        let rows = lines.map { line in
            "\(ReportFrame.csvField(line.name)),\(line.product),\(line.units),\(line.lines),\(MoneyText.plain(line.amount, currency))\r\n"
        }
        return "product,product id,units,order lines,\(amount) (\(currency))\r\n" + rows.joined()
    }
}
