/// One product to pick, for every order on the pick list that wants it.
public struct PickStop: Hashable, Sendable, Identifiable {
    /// 1-based position along the whole route (located stops first, then unlocated ones); printed
    /// on the sheet so a picker can say "stop 17".
    public let sequence: Int
    public let productID: ProductID
    public let productName: String
    public let sku: String
    public let barcode: String?
    /// Where to find the product; `nil` for a product the store has not located yet.
    public let location: ShelfLocation?
    /// How many units go into which tote, one entry per order, in tote-label order.
    public let allocations: [ToteAllocation]
    /// Total units to take from the shelf: the sum of `allocations`.
    public let quantity: Int

    /// A stop is identified by its product: a route has exactly one stop per product.
    public var id: ProductID { productID }

    init(
        sequence: Int,
        productID: ProductID,
        productName: String,
        sku: String,
        barcode: String?,
        location: ShelfLocation?,
        allocations: [ToteAllocation]
    ) {
        self.sequence = sequence
        self.productID = productID
        self.productName = productName
        self.sku = sku
        self.barcode = barcode
        self.location = location
        self.allocations = allocations
        self.quantity = allocations.reduce(0) { $0 + $1.quantity }
    }
}
