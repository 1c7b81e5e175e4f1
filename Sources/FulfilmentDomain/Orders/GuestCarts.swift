import Foundation
import Logging

/// A visitor's cart, before they sign in (issue 45): kept in PostgreSQL under an unguessable
/// token (``SessionToken``'s 256 random bits; only its SHA-256 is stored) that the browser holds
/// in an HttpOnly cookie, priced and checked against its store's stock on every read as an
/// account's cart is. Bounded (``maximumLines`` lines, 20 new carts per client address a day,
/// gone after ``lifetime`` unused) so it cannot be used to fill the database. Signing in or
/// signing up merges it into the account's cart (``merge(token:into:logger:)``).
package struct GuestCarts: Sendable {
    package let database: Database

    package static let maximumLines = 50
    /// How long a cart nobody touches is kept (the cookie lives as long).
    package static let lifetime: TimeInterval = 3 * 24 * 3600

    /// The cart under `token` (empty without one) at its store, else at `store`, the one the
    /// visitor chose.
    package func cart(token: String?, store: StoreID?, logger: Logger) async throws -> Cart {
        try await GuestCartQueries.cart(tokenHash: token.map(SessionToken.hash) ?? [], store: store, on: database.client, logger: logger)
    }

    /// Sets (or with `add`, adds to) a line, making the cart at `store` when `token` has none.
    package func setQuantity(
        _ quantity: Int, of product: ProductID, add: Bool, token: String, store: StoreID, logger: Logger
    ) async throws {
        guard (0...Cart.maximumQuantity).contains(quantity) else { throw OrderError.invalidQuantity }
        let code = try await GuestCartQueries.setLine(
            tokenHash: SessionToken.hash(token), store: store, address: String(ClientAddress.current.prefix(100)), product: product,
            quantity: quantity, add: add, on: database.client, logger: logger)
        switch code {
        case "ok": return
        case "product_not_found": throw OrderError.productNotFound
        case "discontinued": throw OrderError.productDiscontinued(product)
        case "invalid_quantity": throw OrderError.invalidQuantity
        case "cart_full": throw GuestCartError.cartFull
        case "too_many_carts": throw GuestCartError.tooManyCarts
        case "store_not_found": throw OrderError.storeNotFound
        default: throw OrderError.unexpectedlyMissing("set_guest_cart_line's answer \(code)")
        }
    }

    /// Moves the visitor's cart (if any) to `store`; its lines stay and are priced there.
    package func setStore(_ store: StoreID, token: String?, logger: Logger) async throws {
        guard let token else { return }
        try await GuestCartQueries.setStore(store, tokenHash: SessionToken.hash(token), on: database.client, logger: logger)
    }

    /// The visitor's cart into `customer`'s, in one statement (`merge_guest_cart`); nil when
    /// there was none to merge.
    package func merge(token: String, into customer: UserID, logger: Logger) async throws -> CartAddition? {
        try await GuestCartQueries.merge(tokenHash: SessionToken.hash(token), into: customer, on: database.client, logger: logger)
    }
}
