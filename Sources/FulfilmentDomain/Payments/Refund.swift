import Foundation

public enum RefundTag {}
/// A refund's id (typed, as every id of the service).
public typealias RefundID = ID<RefundTag>

/// Money paid back on an order (the `refunds` table, 012).
public struct Refund: Sendable, Equatable {
    public var id: RefundID
    public var orderID: OrderID
    /// `desk` (a manager recorded it) or `provider` (its `refund.succeeded` event).
    public var method: String
    public var amount: Money
    public var recordedBy: UserID?
    public var note: String?
    public var recordedAt: Date
    /// The lines it paid back and how much of each (issue 46).
    public var lines: [LineRefunds.Owing] = []
}
