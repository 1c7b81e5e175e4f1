import Foundation

/// How long something took over a report's orders (issue 46): how many were measured, and the
/// median and the 90th percentile in minutes (PostgreSQL's `percentile_cont`, so the median of
/// two waits is their mean), to a tenth of a minute; nil when nothing was measured.
package struct MinutePercentiles: Sendable, Equatable {
    package var count: Int
    package var p50: Double?
    package var p90: Double?

    package init(count: Int = 0, p50: Double? = nil, p90: Double? = nil) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
    }

    /// From `percentile_cont(ARRAY[0.5, 0.9])` in minutes: rounded to a tenth, never below zero
    /// (a clock set back between two stamps is not a negative wait).
    package init(count: Int, minutes: [Double]?) {
        let rounded = (minutes ?? []).map { ($0.isFinite ? max($0, 0) * 10 : 0).rounded() / 10 }
        self.init(count: count, p50: rounded.count == 2 ? rounded[0] : nil, p90: rounded.count == 2 ? rounded[1] : nil)
    }
}
