/// One product to pick, for every order in the batch that wants it.
public struct PickStop: Hashable, Sendable, Identifiable {
    /// 1-based position in the whole walk (located stops first, then unlocated ones); printed
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

    /// A stop is identified by its product: a walk has exactly one stop per product.
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

/// The part of a stop's quantity that belongs to one order.
public struct ToteAllocation: Hashable, Sendable {
    public let tote: Tote
    /// Units for this order: all of the order's lines for the product, added together.
    public let quantity: Int

    init(tote: Tote, quantity: Int) {
        self.tote = tote
        self.quantity = quantity
    }
}
