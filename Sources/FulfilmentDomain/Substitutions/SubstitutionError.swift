import Foundation
import PostgresNIO

/// Everything a substitution, a decision on one or an arrival can be refused for (issue 27), and
/// how each looks over HTTP. The routines' refusals (SQLSTATE FC000: `substitute_order_line`,
/// `decide_substitution`, `record_arrival`) map here in one place.
package enum SubstitutionError: Error, APIErrorConvertible, Equatable {
    case invalidField(String, String)
    case orderNotFound
    case substitutionNotFound
    /// The order is not pending on this open pick list (`PickListError.orderNotPickable`'s answer).
    case orderNotPickable(OrderStatus?)
    /// The line says `none`, or `specific` without this product.
    case notAllowed(preference: SubstitutionPreference.Kind, named: [ProductID])
    case sameProduct
    /// The order already has a line of the substitute.
    case substituteOnOrder
    /// More units than the line has left to pick.
    case overSubstitution(remaining: Int)
    case substituteDiscontinued(ProductID)
    case notInRange
    case insufficientStock(ProductID, requested: Int, available: Int)
    case alreadyCollected
    case orderCancelled
    /// The other answer was given already.
    case decided(SubstitutionStatus)
    /// An arrival before the order is packed, after it is collected or cancelled, or past its window.
    case notReady(status: OrderStatus?, expectedAt: String?, expired: Bool)

    package var apiError: APIError {
        switch self {
        case .invalidField(let field, let message): .invalidField(field, message)
        case .orderNotFound: .notFound("The order")
        case .orderNotPickable(let status): PickListError.orderNotPickable(status: status).apiError
        case .substitutionNotFound: .notFound("The substitution")
        case .notAllowed(let preference, let named):
            APIError(
                .unprocessableContent, "substitution_not_allowed",
                preference == .none
                    ? "The customer asked for no substitutes on this line: close it short."
                    : "The customer accepts only the products they named for this line.",
                details: ["preference": .string(preference.rawValue), "productIds": .array(named.map { .string($0.description) })])
        case .sameProduct:
            APIError(.unprocessableContent, "substitution_not_allowed", "A product cannot stand in for itself: pick it instead.")
        case .substituteOnOrder:
            APIError(
                .conflict, "substitute_on_order", "The order already has a line of that product; choose another substitute.",
                details: ["field": "substituteProductId"])
        case .overSubstitution(let remaining):
            APIError(
                .unprocessableContent, "over_substitution", "That is more than the line has left to pick (\(remaining)).",
                details: ["field": "quantity", "remaining": .int(remaining)])
        case .substituteDiscontinued(let id):
            APIError(.conflict, "product_discontinued", "That product is discontinued.", details: ["productId": .string(id.description)])
        case .notInRange:
            APIError(.conflict, "not_in_range", "This store does not carry that product.", details: ["field": "substituteProductId"])
        case .insufficientStock(let product, let requested, let available):
            APIError(
                .conflict, "insufficient_stock", "Not enough of the substitute is free to give.",
                details: [
                    "lines": [["productId": .string(product.description), "requested": .int(requested), "available": .int(available)]]
                ])
        case .alreadyCollected:
            APIError(.conflict, "already_collected", "The order has been handed over: its substitutions are settled.")
        case .orderCancelled:
            APIError(.conflict, "order_cancelled", "The order was cancelled.")
        case .decided(let status):
            APIError(
                .conflict, "substitution_decided", "This substitution was already \(status.rawValue).",
                details: ["status": .string(status.rawValue)])
        case .notReady(let status, let expectedAt, let expired):
            APIError(
                .conflict, "not_ready",
                expired
                    ? "The order's collection window has passed."
                    : status == .pending
                        ? "The order is not packed yet\(expectedAt.map { "; it is expected for \($0)" } ?? "")."
                        : "The order is \(status?.rawValue ?? "not open"): there is nothing to bring out.",
                details: [
                    "status": status.map { .string($0.rawValue) } ?? .null, "expectedAt": expectedAt.map { .string($0) } ?? .null,
                ])
        }
    }
}

extension SubstitutionError: DatabaseErrorMapping {
    package init?(databaseError error: any Error) {
        guard let code = error.placeOrderRefusal else { return nil }
        struct Detail: Decodable {
            package var preference: String?, substituteIds: [UUID]?, remaining: Int?, status: String?, expectedAt: String?, expired: Bool?
            package var productId: UUID?
        }
        struct Short: Decodable { var productId: UUID, requested: Int, available: Int }
        let detail = error.refusalDetail.flatMap { try? JSONDecoder().decode(Detail.self, from: Data($0.utf8)) }
        switch code {
        case "order_not_found": self = .orderNotFound
        case "order_not_pickable": self = .orderNotPickable(detail?.status.flatMap(OrderStatus.init(rawValue:)))
        case "line_not_found", "substitution_not_found": self = .substitutionNotFound
        case "substitution_not_allowed":
            self = .notAllowed(
                preference: detail?.preference.flatMap(SubstitutionPreference.Kind.init(rawValue:)) ?? .none,
                named: (detail?.substituteIds ?? []).map(ProductID.init))
        case "same_product": self = .sameProduct
        case "substitute_on_order": self = .substituteOnOrder
        case "over_substitution": self = .overSubstitution(remaining: detail?.remaining ?? 0)
        case "product_discontinued": self = .substituteDiscontinued(ProductID(detail?.productId ?? UUID()))
        case "not_in_range": self = .notInRange
        case "insufficient_stock":
            guard let short = error.refusalDetail.flatMap({ try? JSONDecoder().decode([Short].self, from: Data($0.utf8)) })?.first
            else { return nil }
            self = .insufficientStock(ProductID(short.productId), requested: short.requested, available: short.available)
        case "already_collected": self = .alreadyCollected
        case "order_cancelled": self = .orderCancelled
        case "substitution_decided": self = .decided(detail?.status.flatMap(SubstitutionStatus.init(rawValue:)) ?? .accepted)
        case "not_ready":
            self = .notReady(
                status: detail?.status.flatMap(OrderStatus.init(rawValue:)), expectedAt: detail?.expectedAt,
                expired: detail?.expired ?? false)
        default: return nil
        }
    }
}
