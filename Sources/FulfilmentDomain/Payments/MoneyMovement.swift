import Foundation

/// Money in or out for an order (issue 46): its payment, or a refund, with who recorded it at
/// the desk. The order's page lists them so "did they pay, did we pay them back?" has an answer.
public struct MoneyMovement: Sendable, Equatable {
    public enum Kind: String, Sendable { case payment, refund }

    public var id: UUID
    public var kind: Kind
    /// A payment's `card`, `cash` or `provider`; a refund's `desk` or `provider`.
    public var method: String
    public var amount: Money
    /// Who recorded it at the desk (nil for the payment provider's).
    public var recordedBy: String?
    public var note: String?
    public var at: Date
}
