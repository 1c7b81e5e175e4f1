/// An aisle of the store, as printed on the sheet.
///
/// Two locations are in the same aisle when their whole `Aisle` values are equal; give every
/// location of an aisle the same code, name and walk order.
public struct Aisle: Hashable, Sendable {
    /// The code on the aisle's sign, e.g. "6". Compared numerically when it is digits.
    public var code: String
    /// The aisle's name, e.g. "Dairy".
    public var name: String
    /// Where the aisle comes in the store's walk: lower is visited first. It need not be
    /// contiguous or match the code (a store may walk 1, 2, 5, 4, 3 to follow its layout).
    public var walkOrder: Int

    public init(code: String, name: String, walkOrder: Int) {
        self.code = code
        self.name = name
        self.walkOrder = walkOrder
    }
}
