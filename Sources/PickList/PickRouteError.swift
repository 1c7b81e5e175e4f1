/// Why a route could not be built from the given lines.
public enum PickRouteError: Error, Hashable, Sendable {
    /// A line asked for zero or fewer units. The route refuses rather than guess whether the line
    /// should be dropped; the first such line found is reported.
    case nonPositiveQuantity(orderID: OrderID, productID: ProductID, quantity: Int)
}
