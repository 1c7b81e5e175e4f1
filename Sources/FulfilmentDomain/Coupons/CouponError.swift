import Foundation
import HTTPTypes

/// Everything that can go wrong with coupons, and how each looks over HTTP: the one place
/// coupon errors meet status codes.
package enum CouponError: Error, APIErrorConvertible, Equatable {
    case couponNotFound
    case invalidField(String, String)
    /// Another coupon of the same scope, not ended, has this code (case-insensitively).
    case codeTaken
    case alreadyEnded
    /// PUT /v1/cart/coupon refused the code (`coupon_unknown`, or coupon_refusal's codes).
    case refused(CouponRefusal)
    /// Too many unknown codes from this account within the throttle's window.
    case throttled(retryAfterSeconds: Int)

    package var apiError: APIError {
        switch self {
        case .couponNotFound: .notFound("The coupon")
        case .invalidField(let field, let message): .invalidField(field, message)
        case .codeTaken:
            APIError(.conflict, "coupon_code_taken", "Another coupon that has not ended has this code.", details: ["field": "code"])
        case .alreadyEnded:
            APIError(.conflict, "coupon_ended", "This coupon was ended already.")
        case .refused(let refusal):
            APIError(.conflict, refusal.code, refusal.message, details: refusal.details)
        case .throttled(let seconds):
            APIError(
                .tooManyRequests, "too_many_attempts", "Too many unknown coupon codes; try again in \(seconds) seconds.",
                details: ["retryAfterSeconds": .int(seconds)], headers: [.retryAfter: String(seconds)])
        }
    }
}

/// Why a coupon cannot be used, as `coupon_refusal` (sql/routines) says it: PUT /v1/cart/coupon
/// refuses with it, and a cart whose coupon no longer applies shows it as `coupon.problem`.
public struct CouponRefusal: Sendable, Equatable, Decodable {
    public var code: String
    package var validFrom: String?
    package var minimumSpend: Int64?
    package var shortfall: Int64?
    /// The coupon's currency, for the money above.
    package var currency: String?
    package var retryAfterSeconds: Int?

    package static func unknown() -> CouponRefusal { CouponRefusal(code: "coupon_unknown") }

    package init(code: String) { self.code = code }

    package var message: String {
        switch code {
        case "coupon_unknown": "There is no coupon with this code here."
        case "coupon_expired": "This coupon has expired."
        case "coupon_not_yet_valid": "This coupon is not valid yet."
        case "coupon_not_applicable": "This coupon does not apply to this cart (its store, currency or products)."
        case "coupon_exhausted": "This coupon has been used as many times as it may be."
        case "coupon_already_used": "You have used this coupon as many times as you may."
        case "coupon_minimum_spend":
            if let shortfall, let minimumSpend, let currency {
                "Spend \(MoneyText.format(shortfall, currency)) more to use this coupon: its minimum spend is \(MoneyText.format(minimumSpend, currency))."
            } else {
                "Spend more to use this coupon."
            }
        default: "This coupon cannot be used."
        }
    }

    /// Minor units in the coupon's currency as the contract's Money.
    private func money(_ amount: Int64?) -> JSONValue? {
        amount.map { ["amount": .int(Int($0)), "currency": .string(currency ?? "")] }
    }

    package var details: [String: JSONValue]? {
        var details: [String: JSONValue] = [:]
        if let validFrom { details["validFrom"] = .string(validFrom) }
        if let minimumSpend = money(minimumSpend) { details["minimumSpend"] = minimumSpend }
        if let shortfall = money(shortfall) { details["shortfall"] = shortfall }
        return details.isEmpty ? nil : details
    }
}
