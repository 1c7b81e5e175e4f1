import Foundation

/// What coupons did at a store (issue 46), over the orders placed in the range (the store's
/// days): per coupon, how many orders redeemed it, the discount they were given (what the coupon
/// saves them now, after short picks and refused substitutes) and what those orders cost; a
/// cancelled or expired order gives its redemption back and is counted apart. The uplift compares
/// the average basket of the orders with a coupon to that of the orders without one in the same
/// days (both not cancelled, both after their discount): +0.25 is a quarter more per order.
package struct CouponReport: Sendable {
    /// Orders not cancelled, what they cost and what they saved.
    package struct Bucket: Sendable, Equatable {
        package var orders: Int
        package var sales: Int64
        package var discount: Int64

        package init(orders: Int = 0, sales: Int64 = 0, discount: Int64 = 0) {
            self.orders = orders
            self.sales = sales
            self.discount = discount
        }

        /// The average order's value, rounded to the nearest minor unit; 0 without orders.
        package var averageBasket: Int64 { orders == 0 ? 0 : (sales + Int64(orders) / 2) / Int64(orders) }
    }

    /// One coupon redeemed at the store in the range.
    package struct Line: Sendable, Equatable {
        package var coupon: CouponID
        package var code: String
        /// The chain's coupon rather than the store's own.
        package var chainWide: Bool
        /// Orders that redeemed it and were not cancelled, what they cost and saved.
        package var redeemed: Bucket
        /// Orders that redeemed it and were cancelled (or expired uncollected): given back.
        package var givenBack: Int
    }

    /// The most a report lists (the most redeemed first); the totals count every coupon.
    package static let maximumCoupons = 100

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var currency: String
    /// Orders with a coupon, not cancelled.
    package var withCoupon: Bucket
    /// Orders without one, not cancelled.
    package var withoutCoupon: Bucket
    /// Redemptions given back by cancelled orders.
    package var givenBack: Int
    /// How many coupons were redeemed (all of them, listed or not).
    package var couponCount: Int
    package var coupons: [Line]

    /// The average basket with a coupon over the one without, less one, to four decimals; nil
    /// when either side has no order.
    package var uplift: Double? {
        guard withCoupon.orders > 0, withoutCoupon.orders > 0, withoutCoupon.averageBasket > 0 else { return nil }
        return ((Double(withCoupon.averageBasket) / Double(withoutCoupon.averageBasket) - 1) * 10_000).rounded() / 10_000
    }
}
