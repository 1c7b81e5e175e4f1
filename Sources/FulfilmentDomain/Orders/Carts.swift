import Foundation
import Logging

/// A customer's cart: which store it is for, and its lines, priced and checked against that
/// store's stock each time it is read. Every method answers the cart as it then stands.
package struct Carts: Sendable {
    package let database: Database

    package func cart(customer: UserID, logger: Logger) async throws -> Cart {
        try await CartQueries.cart(customer: customer, on: database.client, logger: logger)
    }

    /// Points the cart at `store`; its lines stay. An unknown store is `storeNotFound`.
    package func setStore(_ store: StoreID, customer: UserID, logger: Logger) async throws -> Cart {
        try await CartQueries.setStore(customer: customer, store: store, on: database.client, logger: logger)
        return try await cart(customer: customer, logger: logger)
    }

    /// Sets a line's quantity, 0 to 99 (0 removes it), for the caller, who is resolved and
    /// admitted by the same statement (`Caller`). `substitution` (nil: as it was) is the line's
    /// preference, already checked (`Substitutions.preference`).
    package func setQuantity(
        _ quantity: Int, of product: ProductID, substitution: SubstitutionPreference? = nil, caller: Caller, logger: Logger
    ) async throws -> Cart {
        guard (0...Cart.maximumQuantity).contains(quantity) else { throw OrderError.invalidQuantity }
        return try await CartQueries.setQuantity(
            caller: caller, product: product, quantity: quantity, substitution: substitution, on: database, logger: logger)
    }

    /// Removes a line; a product not in the cart is not an error, an unknown product is `productNotFound`.
    package func remove(_ product: ProductID, customer: UserID, logger: Logger) async throws -> Cart {
        guard try await CartQueries.removeItem(customer: customer, product: product, on: database.client, logger: logger) else {
            throw OrderError.productNotFound
        }
        return try await cart(customer: customer, logger: logger)
    }

    /// "Buy again": every product of `order` the customer chose (not substitutes the store
    /// proposed), as many as they ordered, added to the cart in one statement (`add_to_cart`);
    /// what the cart's store cannot sell now is named, not added. Without a store chosen,
    /// `noStoreChosen`.
    package func addAgain(_ order: Order, customer: UserID, logger: Logger) async throws -> CartAddition {
        let items = order.lines.enumerated().compactMap { index, line -> CartQueries.Item? in
            let ordered = line.quantity + line.substitutedQuantity
            guard line.substitute == nil, ordered > 0 else { return nil }
            return CartQueries.Item(index: index, text: line.name, productId: line.productID.rawValue, quantity: ordered)
        }
        guard let added = try await CartQueries.add(items, customer: customer, on: database.client, logger: logger) else {
            throw ContentError.noStoreChosen
        }
        return added
    }

    package func clear(customer: UserID, logger: Logger) async throws {
        try await CartQueries.clear(customer: customer, on: database.client, logger: logger)
    }
}
