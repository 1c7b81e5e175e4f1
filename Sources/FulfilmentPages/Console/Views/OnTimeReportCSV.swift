import Foundation
import FulfilmentDomain

/// The on-time report's numbers as CSV (issue 46), the same the page's tables show; the share
/// as a fraction to four places (a spreadsheet formats it as it likes), empty without one.
enum OnTimeReportCSV {
    static func days(_ report: OnTimeReport) -> String {
        header("date (slot start)") + report.days.map { row(String(describing: $0.day), $0.bucket) }.joined()
    }

    static func hours(_ report: OnTimeReport) -> String {
        header("slot start hour (\(report.zone.identifier))")
            + report.hours.enumerated().map { hour, bucket in row(String(format: "%02d:00", hour), bucket) }.joined()
    }

    private static func header(_ first: String) -> String { "\(first),on time,late,share on time,slot to come,cancelled\r\n" }

    private static func row(_ first: String, _ bucket: OnTimeReport.Bucket) -> String {
        let share = bucket.onTimeShare.map { String(format: "%.4f", $0) } ?? ""
        return "\(first),\(bucket.onTime),\(bucket.late),\(share),\(bucket.notYetDue),\(bucket.cancelled)\r\n"
    }
}
