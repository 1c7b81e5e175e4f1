/// The part of a stop's quantity that belongs to one order.
public struct ToteAllocation: Hashable, Sendable {
    public let tote: Tote
    /// Units for this order: all of the order's lines for the product, added together.
    public let quantity: Int
    /// What the order's customer accepts if the shelf is short (``PickLine/substitution``).
    public var substitution: String? = nil
}
