/// A product's minimum age at one store: the chain's, which its admin sets and which holds in
/// every store, and the store's own, which its manager may add where the store's law is
/// stricter. The stricter of the two holds.
///
/// What an age may be (alcohol: 18): a whole number from 1 to 120, or none (anyone may buy
/// it). Checkout records the age that holds at the store on the order line, and the desk then
/// asks for ID (`IDCheck`).
package struct ProductMinimumAge: Sendable, Equatable {
    package var chain: Int?
    package var store: Int?

    package static let range = 1...120

    /// What a customer of the store must be: the greater of the two, nil when neither asks any.
    package var holding: Int? { [chain, store].compactMap { $0 }.max() }

    /// An age as a request gives it: nil (none), or a whole number 1...120.
    package static func checked(_ age: Int?) throws(CatalogueError) -> Int? {
        guard let age else { return nil }
        guard range.contains(age) else { throw .invalidField("minimumAge", "A minimum age is a whole number from 1 to 120.") }
        return age
    }

    /// A `minimum_age` field of the CSV import: empty clears it, else a whole number 1...120.
    package static func parse(_ text: String) throws(CatalogueError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let age = Int(trimmed) else { throw .invalidField("minimum_age", "minimum_age '\(trimmed)' is not a whole number") }
        return try checked(age)
    }

    /// The store's own age, checked against the chain's: never below it (a store may ask more,
    /// never less); nil clears it.
    package static func storeAge(_ age: Int?, chain: Int?) throws(CatalogueError) -> Int? {
        guard let age = try checked(age) else { return nil }
        if let chain, age < chain { throw .minimumAgeBelowChain(chain: chain) }
        return age
    }
}
