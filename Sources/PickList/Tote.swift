/// The tote (crate) one order's goods go into while its pick list is picked.
public struct Tote: Hashable, Sendable {
    /// "A", "B", ... "Z", "AA", "AB", ...: the n-th order of the pick list by order number gets the
    /// n-th label, so the same pick list always gets the same labels.
    public let label: String
    public let orderID: OrderID
    public let orderNumber: String

    /// The label of the tote at `index` (0-based): A...Z, then AA...AZ, BA..., ZZ, AAA...
    ///
    /// Precondition: `index >= 0`.
    public static func label(forIndex index: Int) -> String {
        precondition(index >= 0, "tote index must not be negative")
        var remaining = index + 1  // bijective base 26: there is no "zero" letter
        var letters: [Character] = []
        while remaining > 0 {
            remaining -= 1
            letters.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(remaining % 26))))
            remaining /= 26
        }
        return String(letters.reversed())
    }
}
