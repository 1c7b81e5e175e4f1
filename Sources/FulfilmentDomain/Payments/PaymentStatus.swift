/// Where an order's money is.
public enum PaymentStatus: String, Sendable, Codable {
    case unpaid
    case paid
    /// Paid, and then the order was packed short or cancelled: the difference is owed back.
    case refundDue = "refund_due"
    /// What was owed back has been paid back (by a manager at the desk, or the provider).
    case refunded

    /// Whether the money for the order is in: it may be handed over.
    public var isSettled: Bool { self != .unpaid }
}
