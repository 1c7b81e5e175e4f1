/// An order's payment facts, read with its row locked for the payment (`PaymentQueries`).
package struct PayableOrder: Sendable {
    package var store: StoreID
    package var status: OrderStatus
    package var method: PaymentMethod
    package var paymentStatus: PaymentStatus
    package var total: Int64
    /// What was ordered at checkout, before any short pick lowered the total.
    package var ordered: Int64
    package var currency: String
}
