import Foundation
import FulfilmentDomain

/// The desk report's numbers as CSV (issue 46), the same the page's table shows: minutes to a
/// tenth, empty where no one was handed their order.
enum DeskReportCSV {
    static func hours(_ report: DeskReport) -> String {
        let rows = report.hours.enumerated().map { hour, bucket in
            "\(String(format: "%02d:00", hour)),\(bucket.arrived),\(bucket.wait.count),\(minutes(bucket.wait.p50)),\(minutes(bucket.wait.p90))\r\n"
        }
        return "arrived hour (\(report.zone.identifier)),customers,handed over,median wait (min),90% wait (min)\r\n" + rows.joined()
    }

    private static func minutes(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "" }
}
