/// Stock levels, checked: never negative.
struct StockLevel: Sendable, Equatable {
    var onHand: Int
    var minSupply: Int

    init(onHand: Int, minSupply: Int) throws(CatalogueError) {
        guard (0...1_000_000_000).contains(onHand) else { throw .invalidField("onHand", "On hand must be 0 or more.") }
        guard (0...1_000_000_000).contains(minSupply) else {
            throw .invalidField("minSupply", "Minimum supply must be 0 or more.")
        }
        self.onHand = onHand
        self.minSupply = minSupply
    }
}
