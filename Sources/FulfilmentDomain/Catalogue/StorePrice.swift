import Foundation

/// A product's price at one store: the catalogue's, which every store charges by default, and
/// the store's own, which its manager may set (`Prices`). The store's own holds where it is set.
/// Both are in the product's currency and in minor units.
package struct StorePrice: Sendable, Equatable {
    package var product: ProductID
    package var store: StoreID
    package var catalog: Money
    /// The store's own amount; nil when it charges the catalogue's.
    package var own: Int64?

    /// What the store charges.
    package var holding: Money { Money(amount: own ?? catalog.amount, currency: catalog.currency) }

    /// The store's own price, when it has one.
    package var ownPrice: Money? { own.map { Money(amount: $0, currency: catalog.currency) } }

    /// An amount as a manager sends it: whole minor units from 0 to `Money.maximumPrice`.
    package static func checked(amount: Int64) throws(CatalogueError) -> Int64 {
        guard (0...Money.maximumPrice).contains(amount) else {
            throw .invalidField("amount", "A price is 0 to \(Money.maximumPrice) minor units.")
        }
        return amount
    }

    /// A `store_price` cell of the CSV import: empty leaves the store's price as it is (nil), else
    /// whole minor units from 0 to `Money.maximumPrice`.
    package static func parse(_ text: String) throws(CatalogueError) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let amount = Int64(trimmed), (0...Money.maximumPrice).contains(amount) else {
            throw .invalidField(
                "store_price", "store_price '\(trimmed.prefix(40))' is not a whole number of minor units from 0 to \(Money.maximumPrice)")
        }
        return amount
    }

    /// A store's price is in its product's currency, never another.
    package static func check(currency: String, productCurrency: String) throws(CatalogueError) {
        guard currency == productCurrency else {
            throw .invalidField("currency", "The product is priced in \(productCurrency); a store's price is in the same currency.")
        }
    }
}
