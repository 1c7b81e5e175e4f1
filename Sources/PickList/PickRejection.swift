/// Why a pick was refused. ``code`` is the stable machine-readable name for API errors.
public enum PickRejection: Error, Hashable, Sendable {
    /// The item in hand is not this stop's product: the most common picking mistake.
    case wrongProduct(expected: ProductID, scanned: ScannedCode)
    /// The order has nothing to pick at this stop.
    case orderNotOnStop(OrderID)
    /// A pick must be at least one unit.
    case nonPositiveQuantity(Int)
    /// Picking this many would put more in the tote than the order asked for.
    case overPick(ordered: Int, alreadyPicked: Int, requested: Int)

    public var code: String {
        switch self {
        case .wrongProduct: "wrong_product"
        case .orderNotOnStop: "order_not_on_stop"
        case .nonPositiveQuantity: "invalid_quantity"
        case .overPick: "over_pick"
        }
    }
}
