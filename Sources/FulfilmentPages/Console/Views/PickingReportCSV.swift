import Foundation
import FulfilmentDomain

/// The picking report's numbers as CSV (issue 46), the same the page's tables show: per day, and
/// the most-substituted products (their names as the catalogue has them, quoted as CSV needs).
enum PickingReportCSV {
    static func days(_ report: PickingReport) -> String {
        let rows = report.days.map { row in
            let bucket = row.bucket
            return
                "\(row.day),\(bucket.pickLists),\(bucket.lines),\(String(format: "%.1f", bucket.minutes)),\(decimal(bucket.linesPerHour, "%.1f")),\(bucket.short),\(decimal(bucket.shortShare, "%.4f"))\r\n"
        }
        return "date (list completed),pick lists,lines,minutes,lines per hour,closed short,share short\r\n" + rows.joined()
    }

    static func products(_ report: PickingReport) -> String {
        let rows = report.mostSubstituted.map { product in
            let counts = product.substitutions
            return
                "\(ReportFrame.csvField(product.name)),\(product.product),\(counts.proposed),\(counts.accepted),\(counts.refused),\(counts.awaiting)\r\n"
        }
        return "product,product id,substituted,accepted,refused,awaiting\r\n" + rows.joined()
    }

    private static func decimal(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "" }
}
