import Foundation

/// Were orders ready before their pickup slot started (issue 46)? Over the orders whose slot
/// starts in the range, per day and per hour of the day the slot starts (the store's clock): an
/// order is on time when it was packed (its status reached `packaged`) at or before its slot's
/// start, late when packed after it or not packed by it; one not packed whose slot is still to
/// come is neither yet. Cancelled orders are counted apart and in no share. Orders without a slot
/// (stores without a calendar) are not in this report. With how long packing and collecting took.
package struct OnTimeReport: Sendable {
    package struct Bucket: Sendable, Equatable {
        package var onTime: Int
        package var late: Int
        /// Not packed yet, their slot still to come.
        package var notYetDue: Int
        package var cancelled: Int

        package init(onTime: Int = 0, late: Int = 0, notYetDue: Int = 0, cancelled: Int = 0) {
            self.onTime = onTime
            self.late = late
            self.notYetDue = notYetDue
            self.cancelled = cancelled
        }

        /// On time out of those decided (on time or late), 0 to 1; nil when none is decided.
        package var onTimeShare: Double? {
            let decided = onTime + late
            return decided == 0 ? nil : Double(onTime) / Double(decided)
        }
    }

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var total: Bucket
    /// One per day of the range (by the slot's start), in order, days without slots included.
    package var days: [(day: LocalDate, bucket: Bucket)]
    /// Twenty-four, from midnight, by the hour the slot starts.
    package var hours: [Bucket]
    /// From placing the order to its being packed, over the packed orders that were not cancelled.
    package var placedToReady: MinutePercentiles
    /// From being packed to being handed over, over the collected orders.
    package var readyToCollected: MinutePercentiles
}
