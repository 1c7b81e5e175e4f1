import Foundation
import HTTPTypes

/// The refusals of collector passes (issue 48), and how each looks over HTTP.
package enum CollectorPassError: Error, APIErrorConvertible, Equatable {
    case notFound
    case invalidName
    /// The order already has `CollectorPass.maximumLive` passes not revoked.
    case tooMany
    /// The order can no longer be collected by anyone new (collected or cancelled).
    case orderClosed(OrderStatus)
    /// Revoking a pass that already collected the order.
    case used(at: Date)
    /// Scanned at the desk after the customer revoked it.
    case revoked(at: Date, name: String)

    package var apiError: APIError {
        switch self {
        case .notFound: .notFound("The collector pass")
        case .invalidName:
            .invalidField("name", "Name the person collecting: 1 to \(CollectorPass.maximumNameLength) characters.")
        case .tooMany:
            APIError(
                .conflict, "too_many_collectors",
                "An order may have at most \(CollectorPass.maximumLive) collector passes at once; revoke one first.",
                details: ["limit": .int(CollectorPass.maximumLive)])
        case .orderClosed(let status):
            APIError(
                .conflict, "order_closed", "This order is \(status.rawValue): nobody new can collect it.",
                details: ["status": .string(status.rawValue)])
        case .used(let at):
            APIError(
                .conflict, "pass_used", "This pass already collected the order.", details: ["usedAt": .string(at.formatted(.iso8601))])
        case .revoked(let at, let name):
            APIError(
                .conflict, "pass_revoked", "The customer revoked this collector pass (\(name)): do not hand the order over with it.",
                details: ["revokedAt": .string(at.formatted(.iso8601)), "collector": .string(name)])
        }
    }
}
