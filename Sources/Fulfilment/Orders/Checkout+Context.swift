import Foundation

extension Checkout {
    /// What the service needs before placing an order: who the customer is, the cart's store
    /// (its token number, currency, collection window) and its calendar, and any order this
    /// idempotency key already made.
    struct Context: Sendable {
        struct Store: Sendable {
            var id: StoreID
            var tokenNumber: Int32
            var currency: String
            /// When a token without a slot expires: now plus the store's collection window.
            var windowEnd: Int64
            var calendar: StoreCalendar?
        }
        var customerName: String
        /// Nil when the customer has no cart.
        var store: Store?
        var earlier: (id: OrderID, hash: Data)?
    }

    /// What `place_order` wrote, for the answer.
    struct Placed: Sendable {
        var number: Int64
        var createdAt: Date
        /// What is charged: the lines' prices less `discount`.
        var total: Int64
        /// The cart's coupon's discount (0 without one); the lines carry their shares.
        var discount: Int64
        var lines: [OrderLine]
    }
}
