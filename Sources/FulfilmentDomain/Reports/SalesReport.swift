import Foundation

/// Orders and sales over a range of days (issue 46): per day, per hour of the day, and the
/// average basket. An order counts on the day and hour it was placed, in the store's time zone,
/// at what it costs now (after short picks and refused substitutes); cancelled orders are
/// counted apart and sell nothing.
package struct SalesReport: Sendable {
    package struct Bucket: Sendable, Equatable {
        package var orders: Int
        package var sales: Int64
        package var cancelled: Int

        package init(orders: Int = 0, sales: Int64 = 0, cancelled: Int = 0) {
            self.orders = orders
            self.sales = sales
            self.cancelled = cancelled
        }

        /// The average order's value, rounded to the nearest minor unit; 0 without orders.
        package var averageBasket: Int64 { orders == 0 ? 0 : (sales + Int64(orders) / 2) / Int64(orders) }
    }

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var currency: String
    package var total: Bucket
    /// One per day of the range, in order, days without orders included.
    package var days: [(day: LocalDate, bucket: Bucket)]
    /// Twenty-four, from midnight.
    package var hours: [Bucket]
}
