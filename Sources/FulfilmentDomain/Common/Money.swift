import Foundation

/// An amount in minor units with its ISO currency.
public struct Money: Sendable, Equatable {
    public var amount: Int64
    public var currency: String

    public init(amount: Int64, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

extension Money {
    /// The highest price a product may have, in minor units (100,000,000.00): with at most 99
    /// units a line, no order total comes near 64 bits. The contract and the database say the same.
    public static let maximumPrice: Int64 = 10_000_000_000

    /// `unitPrice × quantity`, saturating instead of trapping (a price written before the
    /// ceiling existed can still be read).
    public static func lineTotal(unitPrice: Int64, quantity: Int) -> Int64 {
        let (product, overflow) = unitPrice.multipliedReportingOverflow(by: Int64(clamping: quantity))
        return overflow ? .max : product
    }

    /// The sum of `amounts`, or nil when it does not fit in 64 bits.
    public static func sum(_ amounts: some Sequence<Int64>) -> Int64? {
        var total: Int64 = 0
        for amount in amounts {
            let (next, overflow) = total.addingReportingOverflow(amount)
            if overflow { return nil }
            total = next
        }
        return total
    }
}
