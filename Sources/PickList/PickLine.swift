/// One line of one order on a pick list: what a picker must put in that order's tote.
///
/// Lines are the route's input. Several lines may name the same product (in one order or
/// across orders); the route consolidates them into one stop. The product details (`productName`,
/// `sku`, `barcode`) should agree across lines of the same product; if they don't, the route
/// deterministically keeps the smallest (by name, then SKU, then barcode), whatever the input order.
public struct PickLine: Hashable, Sendable {
    public var orderID: OrderID
    /// The number staff and customers see, e.g. "1042". Totes are labelled in order-number order
    /// (numerically when the numbers are digits), so it must be the same on every line of an order.
    public var orderNumber: String
    public var productID: ProductID
    public var productName: String
    public var sku: String
    /// The code printed on the product, if it has one; used to confirm a pick by scanning.
    public var barcode: String?
    /// Units to pick; must be at least 1 (the route rejects anything else).
    public var quantity: Int
    /// What the customer accepts if the shelf is short, as the sheet prints it beside the order's
    /// share ("no subs", "sub: any", "sub only: Ackee B"); nil prints nothing.
    public var substitution: String?

    public init(
        orderID: OrderID,
        orderNumber: String,
        productID: ProductID,
        productName: String,
        sku: String,
        barcode: String? = nil,
        quantity: Int,
        substitution: String? = nil
    ) {
        self.orderID = orderID
        self.orderNumber = orderNumber
        self.productID = productID
        self.productName = productName
        self.sku = sku
        self.barcode = barcode
        self.quantity = quantity
        self.substitution = substitution
    }
}
