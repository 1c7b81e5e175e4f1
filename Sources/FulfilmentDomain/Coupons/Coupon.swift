import Foundation

public enum CouponTag {}
/// A coupon's id.
package typealias CouponID = ID<CouponTag>

/// A coupon as its maker sees it: what it takes off, its limits, and how often it was redeemed.
package struct Coupon: Sendable, Equatable {
    package enum Off: Sendable, Equatable {
        /// Basis points of what it applies to (1,000 is 10 %), rounded half to even.
        case percent(basisPoints: Int)
        /// Minor units off what it applies to, at most that.
        case amount(Int64)
    }

    package enum State: String, Sendable {
        case live, upcoming, ended, expired
    }

    package var id: CouponID
    /// Nil: the chain's.
    package var store: StoreID?
    package var code: String
    package var description: String
    package var off: Off
    package var currency: String?
    package var minimumSpend: Int64?
    package var validFrom: Date?
    package var validUntil: Date?
    package var redemptionLimit: Int?
    package var perCustomerLimit: Int?
    package var productIDs: [ProductID]
    package var categories: [String]
    package var redeemed: Int
    package var state: State
    package var createdAt: Date
    package var endedAt: Date?
}

/// Who a coupon belongs to: one store (its manager's, the caller's store bound into the SQL) or
/// the chain (the admin's).
package enum CouponOwner: Sendable, Equatable {
    case store(StoreScope)
    case chain
}

/// A coupon to make, checked: every number within its bounds, each refusal naming its field.
package struct CouponDraft: Sendable, Equatable {
    package static let maximumMoney: Int64 = 10_000_000_000

    package var code: String
    package var description: String
    package var off: Coupon.Off
    package var currency: String?
    package var minimumSpend: Int64?
    package var validFrom: Date?
    package var validUntil: Date?
    package var redemptionLimit: Int?
    package var perCustomerLimit: Int?
    package var productIDs: [ProductID]
    package var categories: [String]

    /// How many times a coupon may be redeemed in all, and by one customer.
    package static let limits = 1...1_000_000_000
    package static let perCustomerLimits = 1...1000

    package struct Money: Sendable, Equatable {
        package var amount: Int64
        package var currency: String

        package init(amount: Int64, currency: String) {
            self.amount = amount
            self.currency = currency
        }
    }

    /// Checks a request. `storeCurrency` is the store's for a store's coupon (its money must be
    /// in it), nil for the chain's (its money must be in one currency).
    package static func checked(
        code: String, description: String?, percentOffBasisPoints: Int?, amountOff: Money?, minimumSpend: Money?,
        validFrom: Date?, validUntil: Date?, redemptionLimit: Int?, perCustomerLimit: Int?, productIDs: [String]?,
        categories: [String]?, storeCurrency: String?, now: Date = Date()
    ) throws(CouponError) -> CouponDraft {
        // By bytes, not a regular expression: `$` there also matches before a final newline.
        let codeByte = { (byte: UInt8) in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 95 || byte == 45
        }
        guard (3...32).contains(code.utf8.count), code.utf8.allSatisfy(codeByte) else {
            throw .invalidField("code", "The code is 3 to 32 letters, digits, _ or -.")
        }
        let description = description ?? ""
        guard description.unicodeScalars.count <= 200, !description.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw .invalidField("description", "The description is at most 200 characters.")
        }
        let off: Coupon.Off
        switch (percentOffBasisPoints, amountOff) {
        case (let points?, nil):
            guard (1...10_000).contains(points) else {
                throw .invalidField("percentOffBasisPoints", "The percentage is 1 to 10000 basis points (1000 is 10 %).")
            }
            off = .percent(basisPoints: points)
        case (nil, let amount?):
            guard (1...maximumMoney).contains(amount.amount) else {
                throw .invalidField("amountOff", "The amount off is 1 to \(maximumMoney) minor units.")
            }
            off = .amount(amount.amount)
        default:
            throw .invalidField("percentOffBasisPoints", "Give exactly one of percentOffBasisPoints and amountOff.")
        }
        if let minimumSpend, !(1...maximumMoney).contains(minimumSpend.amount) {
            throw .invalidField("minimumSpend", "The minimum spend is 1 to \(maximumMoney) minor units.")
        }
        var currency = storeCurrency
        for (field, money) in [("amountOff", amountOff), ("minimumSpend", minimumSpend)] {
            guard let money else { continue }
            let isCurrency = money.currency.utf8.count == 3 && money.currency.utf8.allSatisfy { (65...90).contains($0) }
            guard isCurrency, currency == nil || currency == money.currency else {
                throw .invalidField(field, "Money is in \(currency.map { "the store's currency, \($0)" } ?? "one currency").")
            }
            currency = money.currency
        }
        if let validUntil {
            guard validUntil > now else { throw .invalidField("validUntil", "validUntil is in the future.") }
            if let validFrom, validUntil <= validFrom { throw .invalidField("validUntil", "validUntil is after validFrom.") }
        }
        if let redemptionLimit, !Self.limits.contains(redemptionLimit) {
            throw .invalidField("redemptionLimit", "The redemption limit is 1 to 1000000000.")
        }
        if let perCustomerLimit, !Self.perCustomerLimits.contains(perCustomerLimit) {
            throw .invalidField("perCustomerLimit", "The limit per customer is 1 to 1000.")
        }
        let products = productIDs ?? []
        guard products.count <= 1000 else { throw .invalidField("productIds", "At most 1000 products.") }
        var ids: [ProductID] = []
        for text in products {
            guard let id = ProductID(text) else { throw .invalidField("productIds", "Each product id is a UUID.") }
            if !ids.contains(id) { ids.append(id) }
        }
        let names = (categories ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.count <= 100 else { throw .invalidField("categories", "At most 100 categories.") }
        guard names.allSatisfy({ (1...100).contains($0.unicodeScalars.count) && !$0.unicodeScalars.contains { $0.value == 0 } }) else {
            throw .invalidField("categories", "Each category is 1 to 100 characters.")
        }
        return CouponDraft(
            code: code, description: description, off: off, currency: currency, minimumSpend: minimumSpend?.amount,
            validFrom: validFrom, validUntil: validUntil, redemptionLimit: redemptionLimit, perCustomerLimit: perCustomerLimit,
            productIDs: ids, categories: Array(Set(names)).sorted())
    }
}

/// The coupon a cart carries, as the cart shows it (`cart_coupon` in sql/routines): what it is,
/// the discount it gives the cart now, and why it gives none when it cannot be used.
package struct CartCoupon: Sendable, Equatable, Decodable {
    package var id: UUID
    package var code: String
    package var description: String
    package var percentOffBasisPoints: Int?
    package var amountOff: Int64?
    package var minimumSpend: Int64?
    package var currency: String?
    package var discount: Int64
    package var problem: CouponRefusal?
}

extension CouponID {
    /// A path's coupon id; a malformed one names nothing (404).
    package static func parse(_ text: String) throws(CouponError) -> CouponID {
        guard let id = CouponID(text) else { throw .couponNotFound }
        return id
    }
}
