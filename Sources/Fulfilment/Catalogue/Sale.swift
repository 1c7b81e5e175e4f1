import Foundation

public enum SaleTag {}
/// A sale's id (typed, so it can't be passed where a product or store id is expected).
public typealias SaleID = ID<SaleTag>

/// A product's sale price at one store, from `startsAt` (inclusive) to `endsAt` (exclusive).
/// While it runs, `store_price` (`sql/routines/`) answers its price: what search, product, best
/// price, the cart and checkout show and charge. Sales of one product at one store never overlap
/// (migration 030's exclusion constraint).
struct Sale: Sendable, Equatable {
    enum State: String, Sendable, CaseIterable {
        case running, upcoming, ended
        /// An upcoming sale a manager ended before it started: it never ran, and is gone.
        case withdrawn
    }

    var id: SaleID
    var store: StoreID
    var product: ProductID
    var productName: String
    var price: Money
    /// The store's regular price now (`store_regular_price`: its own, else the catalogue's).
    var regularPrice: Money
    var startsAt: Date
    var endsAt: Date
    var state: State
    /// A manager ended it before its planned end.
    var endedEarly: Bool
}

extension Sale {
    /// A sale as a manager asks for it, checked against the clock before the database checks
    /// the product, the range, the price and overlaps.
    struct Draft: Sendable, Equatable {
        var product: ProductID
        var price: Money
        var startsAt: Date
        var endsAt: Date

        /// The longest a sale may run: a year, a leap year's included.
        static let longest: TimeInterval = 366 * 86_400
        /// How far ahead a sale may start.
        static let furthestStart: TimeInterval = 2 * 366 * 86_400

        /// Refuses what no store could accept: an amount out of range, a window that is empty,
        /// already over, longer than a year or starting more than two years from `now`. Dates
        /// stay within a few years of now, so no timestamp arithmetic can overflow.
        func checked(now: Date) throws(SaleError) -> Draft {
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
