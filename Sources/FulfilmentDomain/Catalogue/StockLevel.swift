/// Stock levels, checked: never negative.
package struct StockLevel: Sendable, Equatable {
    package var onHand: Int
    package var minSupply: Int

    /// What on hand and minimum supply may be: a shelf holds no negative count, nor a billion.
    package static let range = 0...1_000_000_000

    package init(onHand: Int, minSupply: Int) throws(CatalogueError) {
        guard Self.range.contains(onHand) else { throw .invalidField("onHand", "On hand must be 0 or more.") }
        guard Self.range.contains(minSupply) else {
            throw .invalidField("minSupply", "Minimum supply must be 0 or more.")
        }
        self.onHand = onHand
        self.minSupply = minSupply
    }
}
