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

    /// From a histogram of durations in tenths of a minute (`tenths` → how many), as
    /// `percentile_cont` would interpolate over the durations themselves: a year of orders is
    /// hashed into a few thousand tenths rather than sorted (issue 46's "under a second"). Each
    /// duration is rounded to its tenth first, so the figures may differ from exact ones by at
    /// most half a tenth before rounding.
    package init(histogram: [Int64: Int64]) {
        let buckets = histogram.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let count = buckets.reduce(Int64(0)) { $0 &+ $1.value }
        guard count > 0 else {
            self.init()
            return
        }
        /// The duration at 0-based position `index` of the sorted durations, in tenths.
        func value(at index: Int64) -> Double {
            var seen: Int64 = 0
            for bucket in buckets {
                seen &+= bucket.value
                if index < seen { return Double(bucket.key) }
            }
            return Double(buckets[buckets.count - 1].key)
        }
        func percentile(_ fraction: Double) -> Double {
            let position = fraction * Double(count - 1)
            let lower = position.rounded(.down)
            let low = value(at: Int64(lower))
            let high = value(at: Int64(position.rounded(.up)))
            return (low + (position - lower) * (high - low)) / 10
        }
        self.init(count: Int(clamping: count), minutes: [percentile(0.5), percentile(0.9)])
    }
}
