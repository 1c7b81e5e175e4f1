import Foundation

public enum OrderTag {}
/// An order's id (typed, so it can't be passed where a product or store id is expected).
public typealias OrderID = ID<OrderTag>

/// One line of an order: name and price as they were at checkout.
public struct OrderLine: Sendable, Equatable {
    public var productID: ProductID
    public var name: String
    public var unitPrice: Int64
    public var quantity: Int
    /// Set by picking; nil until the line is picked.
    public var pickedQuantity: Int?
    /// The minimum age to buy this product, as it was at checkout; nil for anyone.
    public var minimumAge: Int? = nil
    /// Taken off the order at the desk (no ID shown): it holds no stock and costs nothing.
    public var removed: Bool = false
    /// Its share of the order's coupon discount, captured at checkout for the whole quantity
    /// (`order_lines.discount_amount`); 0 without a coupon.
    public var discount: Int64 = 0
    /// What the customer accepts instead if the shelf is short (issue 27); `none` on a substitute.
    public var substitution: SubstitutionPreference = .init(kind: .none)
    /// Units of this line given as a substitute instead (on a line of their own); `quantity` is
    /// what is left of it, so it is 0 when the whole line was substituted.
    public var substitutedQuantity: Int = 0
    /// Set on a line that is a substitute: which line it stands in for and the customer's answer.
    public var substitute: Substitute? = nil

    /// A substitute line's substitution.
    public struct Substitute: Sendable, Equatable {
        public var id: SubstitutionID
        /// The product of the line it stands in for.
        public var replaces: ProductID
        public var status: SubstitutionStatus
        public var decidedAt: Date?
    }

    /// Closed short at picking: from packing on it holds what was picked.
    public var pickedShort: Bool = false
    /// What the line holds now, as the database counts it (`held_quantity`); nil on a line just
    /// placed, which holds all it ordered.
    public var heldQuantity: Int? = nil
    /// What the line costs now (`order_line_amount` of what it holds, after its coupon share):
    /// the lines' amounts add up to the order's total. Nil on a line just placed.
    public var chargedAmount: Int64? = nil
    /// Its tax class and rate, kept when it was written (issue 48); nil at a store without a
    /// jurisdiction, and on lines written before tax was recorded.
    public var tax: LineTax? = nil
    /// What refunds have paid back for this line so far (`refund_lines`, issue 46).
    public var refunded: Int64 = 0

    /// A substitute the customer rejected: it stays in the store, holds no stock, costs nothing.
    public var isRejected: Bool { substitute?.status == .rejected }
    public var lineTotal: Int64 { isRejected ? 0 : Money.lineTotal(unitPrice: unitPrice, quantity: quantity) }
    /// What the line holds now: all it ordered until something changed it.
    public var held: Int { heldQuantity ?? (removed || isRejected ? 0 : quantity) }
    /// What the line costs now, after its share of a coupon.
    public var amount: Int64 { chargedAmount ?? (removed ? 0 : lineTotal &- discount) }
}

/// "I'm here" (issue 27): when the customer first said so, and where they are.
public struct OrderArrival: Sendable, Equatable {
    public var at: Date
    public var bay: String?
    public var vehicle: String?
    public var note: String?
}

/// One step of an order's history. `from` is nil for the checkout that created it.
public struct OrderEvent: Sendable, Equatable {
    public var from: OrderStatus?
    public var to: OrderStatus
    public var actorID: UserID?
    public var actorName: String?
    public var reason: String?
    public var at: Date
    /// A status change, or (issue 27) a substitution proposed or decided, or the customer's arrival.
    public var kind: Kind = .status

    public enum Kind: String, Sendable, Equatable {
        case status
        case substitutionProposed = "substitution_proposed"
        case substitutionDecided = "substitution_decided"
        case customerArrived = "customer_arrived"
        /// The customer changed the lines before the cut-off (issue 48): `reason` says what.
        case changed
    }
}

/// The pickup token behind an order's QR receipt.
public struct PickupRecord: Sendable, Equatable {
    public var text: String
    public var expiresAt: Date
    public var usedAt: Date?
}

/// An order as the owner and the store's staff see it.
public struct Order: Sendable, Equatable {
    public var id: OrderID
    public var number: Int64
    public var storeID: StoreID
    public var customerID: UserID
    public var customerName: String
    public var status: OrderStatus
    public var paymentMethod: PaymentMethod
    public var paymentStatus: PaymentStatus
    /// What is charged: `subtotal` less `discount`.
    public var total: Money
    /// What the order's coupon takes off now, in `total`'s currency (`orders.discount_amount`):
    /// the lines' shares at checkout, less the part of each that went with units packed short or
    /// removed (`order_line_amount`); 0 without a coupon.
    public var discount: Int64 = 0
    public var createdAt: Date
    public var packagedAt: Date?
    public var deliveringAt: Date?
    public var completedAt: Date?
    public var cancelledAt: Date?
    public var paidAt: Date?
    public var collectedAt: Date?
    public var collectedBy: UserID?
    public var lines: [OrderLine] = []
    public var history: [OrderEvent] = []
    public var pickup: PickupRecord?
    /// Owed back to the customer (see ``PaymentStatus/refundDue``); 0 otherwise.
    public var refundDueAmount: Int64 = 0
    /// Set when the order holds age-restricted goods (`IDCheck`).
    public var idCheck: IDCheck? = nil
    /// The slot it is collected in; nil at a store without a calendar.
    public var pickupSlot: PickupSlot? = nil
    /// The store's zone, for the slot's local times (nil when the store has no calendar now).
    public var pickupTimeZone: TimeZone? = nil
    /// Set once the customer said they are here (`POST /v1/orders/{id}/arrival`).
    public var arrival: OrderArrival? = nil
    /// The store's tax as its receipts print it; nil when the store is in no jurisdiction.
    public var taxSeller: TaxSeller? = nil
    /// Whether it will be ready on time (issue 47), when read against the clock (`getOrder`, the
    /// pages); nil when closed, without a slot, or read by a write that returns the order.
    public var timeliness: OrderTimeliness? = nil
    /// The collector pass scanned at the desk (issue 48), when someone the customer named is
    /// collecting: set by `Collections` for the desk's answer, nil otherwise.
    public var collector: CollectorPass? = nil
    /// Its customer may still change its lines (issue 48): pending and on no open pick list, as
    /// `order_view` reads it (the cut-off is the moment it joins one).
    public var changeable: Bool = false
    /// Its bags once packed (issue 47), and whether its store stages them in places.
    public var bags: OrderBags = OrderBags()
    /// The tax in what the order costs now, per rate; nil without a jurisdiction or rates.
    public var taxBreakdown: TaxBreakdown? { taxSeller == nil ? nil : TaxBreakdown(lines: lines) }

    /// The price of what the order holds before its coupon: `total` plus `discount`.
    public var subtotal: Money { Money(amount: total.amount &+ discount, currency: total.currency) }

    /// What is still to pay before hand-over: the total while unpaid, nothing once paid.
    public var amountDue: Money { Money(amount: paymentStatus.isSettled ? 0 : total.amount, currency: total.currency) }
}
