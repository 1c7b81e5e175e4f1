import Foundation

/// How the store's products did (issue 46). Over the orders placed in the range (the store's
/// days): the best sellers, by units and with what they sold for (what a line holds now: picked
/// short, refused substitutes and lines removed at the desk taken off, after its coupon share),
/// and the items never collected (the lines of orders that were cancelled, by the customer, the
/// store or running out of time). The products out of stock in the range, with for how many
/// hours: kept since migration 061 (`stock_outages`, a trigger on the stock row as what is
/// available crosses zero, sales included); before it, not known. And, whatever the range, the
/// products out of stock now, with since when where the stock ledger says: stock leaves on hand
/// when an order is collected, which the ledger does not record; only a run out that the ledger
/// itself left at zero (a count, breakage, a correction) has a start there.
package struct ProductReport: Sendable {
    /// A product's lines in the range.
    package struct Line: Sendable, Equatable {
        package var product: ProductID
        package var name: String
        /// Order lines that held any of it.
        package var lines: Int
        package var units: Int
        /// What those lines cost (best sellers) or would have (never collected), in minor units.
        package var amount: Int64
    }

    /// The lines of a kind over every product.
    package struct Totals: Sendable, Equatable {
        /// Orders placed in the range of the kind (not cancelled, or cancelled), lines or not.
        package var orders: Int
        package var lines: Int
        package var units: Int
        package var amount: Int64
        /// How many products (listed or not).
        package var products: Int

        package init(orders: Int = 0, lines: Int = 0, units: Int = 0, amount: Int64 = 0, products: Int = 0) {
            self.orders = orders
            self.lines = lines
            self.units = units
            self.amount = amount
            self.products = products
        }
    }

    /// A product of the store's range with nothing left to sell now.
    package struct OutOfStock: Sendable, Equatable {
        package var product: ProductID
        package var name: String
        package var onHand: Int
        /// All of on hand is held by open orders (on hand above zero).
        package var reserved: Int
        /// When the stock ledger left it at zero, when that is still how it stands; nil when it ran
        /// out by sales (not in the ledger) or is held by orders.
        package var since: Date?
    }

    /// A product with nothing available for part of the range.
    package struct OutOfStockHours: Sendable, Equatable {
        package var product: ProductID
        package var name: String
        /// Its outages overlapping the range.
        package var outages: Int
        /// How long they overlapped the range (up to when the report was drawn), in seconds.
        package var seconds: Double

        /// Hours out of stock in the range, to a tenth.
        package var hours: Double { (seconds / 360).rounded() / 10 }
    }

    /// The most best sellers and never-collected products a report lists.
    package static let topProducts = 20
    /// The most out-of-stock products a report lists (the longest out first).
    package static let maximumOutOfStock = 50

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var currency: String
    /// When the report was drawn: the out-of-stock hours run to it.
    package var now: Date
    /// Orders not cancelled.
    package var sold: Totals
    /// At most `topProducts`, the most units first (then the most sales, then by name).
    package var bestSellers: [Line]
    /// Cancelled orders: what was never collected.
    package var uncollected: Totals
    package var neverCollected: [Line]
    /// How many products are out of stock now (listed or not).
    package var outOfStockCount: Int
    /// At most `maximumOutOfStock`, those out longest first, then those without a known start by name.
    package var outOfStock: [OutOfStock]
    /// How many products were out of stock for part of the range (listed or not).
    package var outOfStockHoursCount: Int
    /// At most `maximumOutOfStock`, the most hours out in the range first.
    package var outOfStockHours: [OutOfStockHours]

    /// Whole hours from `since` to `now`; nil without a start.
    package func hoursOut(_ product: OutOfStock) -> Int? {
        product.since.map { max(0, Int(now.timeIntervalSince($0) / 3600)) }
    }
}
