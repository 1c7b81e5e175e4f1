import Foundation

/// A customer's cart, priced now and checked against the cart store's stock now.
public struct Cart: Sendable, Equatable {
    /// The most of one product a cart line (and a pick) may hold.
    public static let maximumQuantity = 99

    public struct Line: Sendable, Equatable {
        public var productID: ProductID
        public var name: String
        public var unitPrice: Int64
        public var quantity: Int
        /// What the cart's store could sell right now (`on_hand - reserved`; 0 when it carries none).
        public var available: Int
        public var discontinued: Bool
        /// This line's share of the cart's coupon (0 without one, or when it cannot be used now).
        public var discount: Int64 = 0
        /// What the customer accepts instead if the shelf is short (issue 27): the line's own
        /// preference, else its store's default.
        public var substitution: SubstitutionPreference = .init(kind: .none)
        /// The regular price at the cart's store while a sale sets `unitPrice` below it (issue 26).
        public var regularPrice: Int64?
        /// When that sale ends.
        public var saleEndsAt: Date?
        public var lineTotal: Int64 { Money.lineTotal(unitPrice: unitPrice, quantity: quantity) }
    }

    public var storeID: StoreID?
    public var currency: String
    public var lines: [Line]
    /// The coupon on the cart, if any (issue 26): its discount is the lines' shares, none when
    /// it has a problem.
    package var coupon: CartCoupon?
    /// Saturates rather than traps; checkout refuses a total that does not fit.
    public var subtotal: Int64 { Money.sum(lines.map(\.lineTotal)) ?? .max }
    public var discount: Int64 { lines.reduce(0) { $0 + $1.discount } }
    /// What the lines come to after the coupon's discount.
    public var total: Int64 { subtotal - discount }

    /// A cart with nothing in it at `store` (a visitor's before their first line).
    package static func empty(at store: StoreRecord?) -> Cart {
        Cart(storeID: store?.id, currency: store?.currency ?? "JMD", lines: [])
    }
}
