import Foundation

public enum SaleTag {}
/// A sale's id (typed, so it can't be passed where a product or store id is expected).
public typealias SaleID = ID<SaleTag>

/// A product's sale price at one store, from `startsAt` (inclusive) to `endsAt` (exclusive).
/// While it runs, `store_price` (`sql/routines/`) answers its price: what search, product, best
/// price, the cart and checkout show and charge. Sales of one product at one store never overlap
/// (migration 030's exclusion constraint).
package struct Sale: Sendable, Equatable {
    package enum State: String, Sendable, CaseIterable {
        case running, upcoming, ended
        /// An upcoming sale a manager ended before it started: it never ran, and is gone.
        case withdrawn
    }

    package var id: SaleID
    package var store: StoreID
    package var product: ProductID
    package var productName: String
    package var price: Money
    /// The store's regular price now (`store_regular_price`: its own, else the catalogue's).
    package var regularPrice: Money
    package var startsAt: Date
    package var endsAt: Date
    package var state: State
    /// A manager ended it before its planned end.
    package var endedEarly: Bool
}

extension Sale {
    /// A sale as a manager asks for it, checked against the clock before the database checks
    /// the product, the range, the price and overlaps.
    package struct Draft: Sendable, Equatable {
        package var product: ProductID
        package var price: Money
        package var startsAt: Date
        package var endsAt: Date

        package init(product: ProductID, price: Money, startsAt: Date, endsAt: Date) {
            self.product = product
            self.price = price
            self.startsAt = startsAt
            self.endsAt = endsAt
        }

        /// The longest a sale may run: a year, a leap year's included.
        package static let longest: TimeInterval = 366 * 86_400
        /// How far ahead a sale may start.
        package static let furthestStart: TimeInterval = 2 * 366 * 86_400

        /// Refuses what no store could accept: an amount out of range, a window that is empty,
        /// already over, longer than a year or starting more than two years from `now`. Dates
        /// stay within a few years of now, so no timestamp arithmetic can overflow.
        package func checked(now: Date) throws(SaleError) -> Draft {
            guard (0...Money.maximumPrice).contains(price.amount) else {
                throw .invalidField("price", "A sale price is 0 to \(Money.maximumPrice) minor units.")
            }
            guard startsAt.timeIntervalSince(now) <= Self.furthestStart else {
                throw .invalidField("startsAt", "A sale starts within two years from now.")
            }
            guard endsAt > startsAt else { throw .invalidField("endsAt", "A sale ends after it starts.") }
            guard endsAt > now else { throw .invalidField("endsAt", "That end has already passed.") }
            guard endsAt.timeIntervalSince(startsAt) <= Self.longest else {
                throw .invalidField("endsAt", "A sale runs for at most 366 days.")
            }
            return self
        }
    }
}
