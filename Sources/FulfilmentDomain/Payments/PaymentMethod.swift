/// How an order is paid.
public enum PaymentMethod: String, Sendable, Codable, CaseIterable {
    /// Paid at the desk (card or cash) before the goods are handed over.
    case payAtCollection = "pay_at_collection"
    /// Paid through the payment provider; its signed webhook marks the order paid.
    case prepaid
}
