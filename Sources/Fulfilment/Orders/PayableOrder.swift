/// An order's payment facts, read with its row locked for the payment (`PaymentQueries`).
struct PayableOrder: Sendable {
    var store: StoreID
    var status: OrderStatus
    var method: PaymentMethod
    var paymentStatus: PaymentStatus
    var total: Int64
    /// What was ordered at checkout, before any short pick lowered the total.
    var ordered: Int64
    var currency: String
}
