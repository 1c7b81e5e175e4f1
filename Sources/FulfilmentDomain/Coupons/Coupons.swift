import Foundation
import Logging

/// Coupons: a store's manager makes, lists and ends the store's (the caller's store bound into
/// the SQL), the chain's admin the chain's; a customer puts one on their cart, where it shows
/// its discount (the cart's `coupon`), and checkout redeems it (`place_order`).
package struct Coupons: Sendable {
    package let database: Database
    /// The cart a coupon goes on, read back after applying it.
    private let carts: Carts

    package init(database: Database) {
        self.database = database
        self.carts = Carts(database: database)
    }

    /// Unknown codes one account may try in `throttleWindowSeconds` before every application
    /// is refused (429) until the window ends.
    package static let throttleLimit = 10
    package static let throttleWindowSeconds = 15 * 60

    /// A request's money, as the contract sends it.
    package typealias Money = CouponDraft.Money

    /// The currency of the caller's store, which its coupons' money is in; nil for no such store.
    package func currency(in scope: StoreScope, logger: Logger) async throws -> String? {
        try await CouponQueries.currency(of: scope, on: database.client, logger: logger)
    }

    /// Makes a coupon for `owner`. A store's money must be in the store's currency; its
    /// products must exist (`invalid_field` naming `productIds`).
    package func create(
        owner: CouponOwner, by user: UserID, code: String, description: String?, percentOffBasisPoints: Int?, amountOff: Money?,
        minimumSpend: Money?, validFrom: Date?, validUntil: Date?, redemptionLimit: Int?, perCustomerLimit: Int?,
        productIDs: [String]?, categories: [String]?, logger: Logger
    ) async throws -> Coupon {
        var storeCurrency: String?
        if case .store(let scope) = owner {
            guard let currency = try await currency(in: scope, logger: logger) else {
                throw CatalogueError.storeNotFound
            }
            storeCurrency = currency
        }
        let draft = try CouponDraft.checked(
            code: code, description: description, percentOffBasisPoints: percentOffBasisPoints, amountOff: amountOff,
            minimumSpend: minimumSpend, validFrom: validFrom, validUntil: validUntil, redemptionLimit: redemptionLimit,
            perCustomerLimit: perCustomerLimit, productIDs: productIDs, categories: categories, storeCurrency: storeCurrency)
        guard let coupon = try await CouponQueries.create(draft, owner: owner, by: user, on: database.client, logger: logger) else {
            throw CouponError.invalidField("productIds", "Every product must exist.")
        }
        return coupon
    }

    /// A page of `owner`'s coupons, newest first (a store's with the chain's).
    package func list(owner: CouponOwner, limit: Int?, cursor: String?, logger: Logger) async throws -> Page<Coupon> {
        try await CouponQueries.list(owner: owner, limit: try pageSize(limit), cursor: cursor, on: database.client, logger: logger)
    }

    /// Ends one of `owner`'s coupons now: it can no longer be applied, and its code is free.
    package func end(_ id: CouponID, owner: CouponOwner, by user: UserID, logger: Logger) async throws -> Coupon {
        switch try await CouponQueries.end(id, owner: owner, by: user, on: database.client, logger: logger) {
        case .ended(let coupon): return coupon
        case .alreadyEnded: throw CouponError.alreadyEnded
        case .notFound: throw CouponError.couponNotFound
        }
    }

    /// Puts the coupon with `code` on the customer's cart and answers the cart, or throws why
    /// not: `CouponError.refused`, `.throttled`, or `OrderError.noStoreChosen`.
    package func apply(code: String, customer: UserID, logger: Logger) async throws -> Cart {
        guard (1...64).contains(code.count), !code.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw CouponError.invalidField("code", "The code is 1 to 64 characters.")
        }
        if let refusal = try await CouponQueries.apply(
            code: code, customer: customer, limit: Self.throttleLimit, windowSeconds: Self.throttleWindowSeconds,
            on: database.client, logger: logger)
        {
            switch refusal.code {
            case "too_many_attempts": throw CouponError.throttled(retryAfterSeconds: refusal.retryAfterSeconds ?? 1)
            case "no_store_chosen": throw OrderError.noStoreChosen
            default: throw CouponError.refused(refusal)
            }
        }
        return try await carts.cart(customer: customer, logger: logger)
    }

    /// Takes the coupon off the customer's cart (none is not an error) and answers the cart.
    package func remove(customer: UserID, logger: Logger) async throws -> Cart {
        try await CouponQueries.remove(customer: customer, on: database.client, logger: logger)
        return try await carts.cart(customer: customer, logger: logger)
    }
}
