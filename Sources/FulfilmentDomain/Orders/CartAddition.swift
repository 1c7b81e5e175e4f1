import Foundation

/// What adding several lines to a cart at once did (`add_to_cart`: a recipe's ingredients, an
/// order bought again), line by line: what went in and what did not, with the reason.
package struct CartAddition: Sendable, Decodable, Equatable {
    package struct Line: Sendable, Decodable, Equatable {
        package var index: Int
        package var text: String
        package var productId: UUID?
        package var name: String?
        /// The units it asked for.
        package var quantity: Int?
        /// The cart's line after it went in.
        package var cartQuantity: Int?
        /// Why it did not: `no_product`, `discontinued`, `not_carried`, `out_of_stock`, `quantity_limit`.
        package var reason: String?
        /// With `out_of_stock`: what the store can still sell.
        package var available: Int?
    }
    package var storeId: UUID
    package var added: [Line]
    package var notAdded: [Line]

    /// "Jerk Seasoning (out of stock), Water (not sold at this store)": what did not go in, for a sentence.
    package var notAddedText: String { Self.notAddedText(notAdded) }

    /// The same sentence for any lines that did not go in (a recipe's, `RecipeToCart`'s).
    package static func notAddedText(_ lines: [Line]) -> String {
        lines.map { line in
            let name = line.name ?? line.text
            let why =
                switch line.reason {
                case "discontinued": "no longer sold"
                case "not_carried": "not sold at this store"
                case "out_of_stock": line.available.map { $0 > 0 ? "only \($0) left" : "out of stock" } ?? "out of stock"
                case "quantity_limit": "at most \(Cart.maximumQuantity) of one product"
                default: "not in the catalogue"
                }
            return "\(name) (\(why))"
        }.joined(separator: ", ")
    }
}
