import Foundation

/// What each line of a paid order may still give back (issue 46: refunds by line, "never more
/// than was paid for the line after its share of a discount").
///
/// A line gives back what was paid for it less what the customer keeps of it, less what refunds
/// already paid back for it (`OrderLine.refunded`, the `refund_lines` rows):
/// - paid for it: online (`prepaid`) its price at checkout after its coupon share, for all it
///   ordered (what the provider was charged); at the desk, what it cost when the desk took the
///   money, which is what it costs now, since nothing but a cancellation changes a paid order;
/// - kept of it: nothing once the order is cancelled; else what it costs now (short picks,
///   removal at the desk) plus what its substitutes cost now (an accepted substitute is the
///   line's units in another product; a refused one costs nothing, so the line gives those
///   units back).
///
/// A substitute line gives back nothing of its own: its price is set against the line it stands
/// in for. The lines' amounts add up to what `OrderQueries.reconcileRefund` says the order owes,
/// except where a substitute costs more than the units it replaced (then the order owes less
/// than its lines, and the order's figure, the smaller, is the cap on every refund).
public struct LineRefunds: Sendable, Equatable {
    /// A line that may still give something back, and how much (minor units, > 0).
    public struct Owing: Sendable, Equatable {
        public var productID: ProductID
        public var amount: Int64

        public init(productID: ProductID, amount: Int64) {
            self.productID = productID
            self.amount = amount
        }
    }

    /// The lines owing something, in the order's line order.
    public var owing: [Owing]

    public init(_ order: Order) {
        guard order.paymentStatus == .refundDue || order.paymentStatus == .refunded else {
            owing = []
            return
        }
        let cancelled = order.status == .cancelled
        var substitutesCost: [ProductID: Int64] = [:]
        for line in order.lines {
            if let substitute = line.substitute { substitutesCost[substitute.replaces, default: 0] &+= line.amount }
        }
        owing = order.lines.compactMap { line in
            guard line.substitute == nil else { return nil }
            let now = line.amount &+ (substitutesCost[line.productID] ?? 0)
            let paid = order.paymentMethod == .prepaid ? Self.paidAtCheckout(line) : now
            let kept = cancelled ? 0 : now
            let amount = paid &- kept &- line.refunded
            return amount > 0 ? Owing(productID: line.productID, amount: amount) : nil
        }
    }

    /// What a line (not a substitute) cost at checkout after its coupon share, for all it ordered
    /// (the units given to a substitute since included): what the provider was charged for it.
    public static func paidAtCheckout(_ line: OrderLine) -> Int64 {
        guard line.substitute == nil else { return 0 }
        return Money.lineTotal(unitPrice: line.unitPrice, quantity: line.quantity &+ line.substitutedQuantity) &- line.discount
    }

    /// What `productID`'s line may still give back; 0 for a line owing nothing.
    public func amount(of productID: ProductID) -> Int64 {
        owing.first { $0.productID == productID }?.amount ?? 0
    }

    /// A refund of the whole of what the order owes (`due`), shared over the lines owing it in
    /// their order, each up to what it owes, until the refund is spent: which lines a refund
    /// without lines (the desk's whole amount, the provider's) pays back.
    public func shared(_ due: Int64) -> [Owing] {
        var left = due
        var shares: [Owing] = []
        for line in owing where left > 0 {
            let share = min(line.amount, left)
            shares.append(Owing(productID: line.productID, amount: share))
            left &-= share
        }
        return shares
    }

    /// The lines a manager chose to pay back, checked against what each may give back and the
    /// order owes (`due`): each line once, a line of this order, each amount at most its line's,
    /// together `amount` and at most what the order owes.
    public func check(_ chosen: [Owing], amount: Money, due: Int64) throws(OrderError) {
        var seen: Set<ProductID> = []
        var sum: Int64 = 0
        for line in chosen {
            guard seen.insert(line.productID).inserted else { throw .refundLineTwice(line.productID) }
            let most = self.amount(of: line.productID)
            guard line.amount <= most else {
                throw .refundLineTooLarge(line.productID, refundable: most, currency: amount.currency)
            }
            sum &+= line.amount
        }
        guard sum == amount.amount else { throw .refundLinesMismatch(sum: sum, currency: amount.currency) }
        guard sum <= due else { throw .refundMismatch(due: due, currency: amount.currency) }
    }
}
