import Foundation

public enum PaymentTag {}
/// A payment's id (typed, as every id of the service).
public typealias PaymentID = ID<PaymentTag>

/// A payment recorded against an order.
public struct Payment: Sendable, Equatable {
    public var id: PaymentID
    public var orderID: OrderID
    public var method: String
    public var amount: Money
    public var recordedAt: Date
}
