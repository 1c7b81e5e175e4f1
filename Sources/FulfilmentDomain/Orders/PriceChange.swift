import Foundation

/// A cart line whose price moved after the customer last saw it: a sale started or ended, or the
/// store changed its price. Checkout refuses with these (`OrderError.priceChanged`) rather than
/// charge a price the customer was not shown; reading the cart shows, and records, the new one.
public struct PriceChange: Sendable, Equatable {
    public var productID: ProductID
    /// The price the customer was last shown; nil for a line written before prices were recorded.
    public var shown: Money?
    /// The price now.
    public var price: Money

    /// The line as `price_changed`'s details list it.
    package var json: JSONValue {
        func money(_ money: Money) -> JSONValue { ["amount": .int(Int(money.amount)), "currency": .string(money.currency)] }
        return ["productId": .string(productID.description), "shownPrice": shown.map(money) ?? .null, "price": money(price)]
    }
}
