import Foundation

extension Checkout {
    /// What the service needs before placing an order: who the customer is, the cart's store
    /// (its token number, currency, collection window) and its calendar, and any order this
    /// idempotency key already made.
    package struct Context: Sendable {
        package struct Store: Sendable {
            package var id: StoreID
            package var tokenNumber: Int32
            package var currency: String
            /// When a token without a slot expires: now plus the store's collection window.
            package var windowEnd: Int64
            package var calendar: StoreCalendar?
            /// The store's tax, for the answer's `tax` (issue 48); nil in no jurisdiction.
            package var taxSeller: TaxSeller?
        }
        package var customerName: String
        /// Nil when the customer has no cart.
        package var store: Store?
        package var earlier: (id: OrderID, hash: Data)?
    }

    /// What `place_order` wrote, for the answer.
    package struct Placed: Sendable {
        package var number: Int64
        package var createdAt: Date
        /// What is charged: the lines' prices less `discount`.
        package var total: Int64
        /// The cart's coupon's discount (0 without one); the lines carry their shares.
        package var discount: Int64
        package var lines: [OrderLine]
    }
}
