import Foundation

public enum SubstitutionTag {}
/// A substitution's id: `POST /v1/orders/{orderId}/substitutions/{substitutionId}/decision`.
public typealias SubstitutionID = ID<SubstitutionTag>

/// What a customer accepts instead of a line the shelf cannot fill (issue 27), said on the cart
/// line and carried onto the order line. A line that says nothing takes its store's default.
public struct SubstitutionPreference: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Refund it if short: nothing else.
        case none
        /// The picker chooses something like it.
        case bestMatch = "best_match"
        /// Only one of `productIDs`, in the order given.
        case specific
    }

    public var kind: Kind
    /// The products a `specific` preference names, 1 to ``maximumProducts``; empty otherwise.
    public var productIDs: [ProductID] = []

    /// How many products a `specific` preference may name.
    public static let maximumProducts = 3

    /// A preference from a client: `kind` one of the three; `specific` with 1 to 3 distinct
    /// products, none of them `product` itself; the others name none. Whether each named product
    /// exists and is on sale the database says (`SubstitutionQueries.checkNamed`).
    package static func checked(kind text: String, productIDs: [String]?, for product: ProductID) throws(SubstitutionError)
        -> SubstitutionPreference
    {
        guard let kind = Kind(rawValue: text) else {
            throw .invalidField("substitution.preference", "The preference is none, best_match or specific.")
        }
        let ids = productIDs ?? []
        guard kind == .specific else {
            guard ids.isEmpty else { throw .invalidField("substitution.productIds", "Only a specific preference names products.") }
            return SubstitutionPreference(kind: kind)
        }
        guard (1...maximumProducts).contains(ids.count) else {
            throw .invalidField("substitution.productIds", "A specific preference names 1 to \(maximumProducts) products.")
        }
        var named: [ProductID] = []
        for text in ids {
            guard let id = ProductID(text) else {
                throw .invalidField("substitution.productIds", "Each product is a product's id.")
            }
            guard id != product else {
                throw .invalidField("substitution.productIds", "A product cannot stand in for itself.")
            }
            guard !named.contains(id) else { throw .invalidField("substitution.productIds", "Each product once.") }
            named.append(id)
        }
        return SubstitutionPreference(kind: kind, productIDs: named)
    }
}

/// The customer's answer to a substitution: `proposed` until they (or the desk, with them there)
/// decide; one still proposed at the hand-over is taken as it is bagged (`accepted`).
public enum SubstitutionStatus: String, Sendable, Equatable {
    case proposed, accepted, rejected
}

/// How a store prices a substitute: `cap`, the lower of its price and the original line's unit
/// price; `substitutePrice`, its own. An order already paid is capped whatever the rule.
public enum SubstitutionPriceRule: String, Sendable, Equatable, CaseIterable {
    case cap
    case substitutePrice = "substitute_price"
}

/// A store's substitution policy: the preference of lines that say none, and the price rule.
public struct SubstitutionPolicy: Sendable, Equatable {
    /// `none` or `best_match`: a default cannot name products.
    public var defaultPreference: SubstitutionPreference.Kind
    public var priceRule: SubstitutionPriceRule

    package init(defaultPreference: SubstitutionPreference.Kind, priceRule: SubstitutionPriceRule) {
        self.defaultPreference = defaultPreference
        self.priceRule = priceRule
    }
}
