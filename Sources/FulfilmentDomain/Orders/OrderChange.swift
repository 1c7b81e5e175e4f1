import Foundation

/// What the customer asks of their order's lines before the cut-off (issue 48): per product the
/// quantity it should now have (0 removes the line), and the price they were shown for it, if the
/// client sends it (the price guarantee, as at checkout).
package struct OrderChange: Sendable, Equatable {
    package struct Line: Sendable, Equatable {
        package var productID: ProductID
        package var quantity: Int
        /// The unit price the customer saw, in minor units; nil: not said.
        package var shownPrice: Int64?

        package init(productID: ProductID, quantity: Int, shownPrice: Int64? = nil) {
            self.productID = productID
            self.quantity = quantity
            self.shownPrice = shownPrice
        }
    }

    /// At most as many entries as a cart may hold lines (`set_guest_cart_line`'s 50).
    package static let maximumLines = 50
    /// The largest shown price read: more than any price a store keeps, small enough that no sum traps.
    package static let maximumPrice: Int64 = 1_000_000_000_000

    package var lines: [Line]

    /// The request bounded by what it means before anything computes with it: 1 to
    /// ``maximumLines`` entries, each product once, quantities 0 to `Cart.maximumQuantity`, shown
    /// prices 0 to ``maximumPrice``; anything else is `invalid_field` (422).
    package init(checking lines: [Line]) throws {
        guard (1...Self.maximumLines).contains(lines.count) else {
            throw APIError.invalidField("lines", "A change names 1 to \(Self.maximumLines) products.")
        }
        var seen = Set<ProductID>()
        for line in lines {
            guard (0...Cart.maximumQuantity).contains(line.quantity) else { throw OrderError.invalidQuantity }
            if let price = line.shownPrice, !(0...Self.maximumPrice).contains(price) {
                throw APIError.invalidField("unitPrice", "A unit price is a whole number of minor units from 0 to \(Self.maximumPrice).")
            }
            guard seen.insert(line.productID).inserted else { throw OrderError.lineNamedTwice(line.productID) }
        }
        self.lines = lines
    }
}
