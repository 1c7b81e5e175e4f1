import Foundation

/// How long customers waited at the desk or the kerb (issue 46): from their first "I'm here"
/// (`orders.arrived_at`, the history's `customer_arrived`) to the hand-over (`completed`), p50
/// and p90 in minutes, per hour of the day they arrived on the store's clock and over the range.
/// A customer who arrived and was not handed their order (cancelled, or still waiting) is counted
/// as arrived and in no wait.
package struct DeskReport: Sendable {
    package struct Bucket: Sendable, Equatable {
        /// Said "I'm here" in the range (this hour).
        package var arrived: Int
        /// Of those, handed their order, and how long after they arrived.
        package var wait: MinutePercentiles

        package init(arrived: Int = 0, wait: MinutePercentiles = MinutePercentiles()) {
            self.arrived = arrived
            self.wait = wait
        }
    }

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var total: Bucket
    /// Twenty-four, from midnight, by the hour the customer arrived.
    package var hours: [Bucket]
}
