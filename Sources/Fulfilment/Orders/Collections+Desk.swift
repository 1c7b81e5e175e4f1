import Foundation
import Logging
import QRReceipt

/// What the desk shows for a scan: `Collections.preview`'s verdict, plus the order behind it
/// whenever the token is genuine and of this store (so "pay first", "not ready" and "already
/// collected" still show whose order it is and what is in it).
struct DeskScan: Sendable {
    /// Nil when the token is forged, expired, unknown or of another store.
    var order: Order?
    /// Nil when the order can be handed over now.
    var refusal: OrderError?
}

extension Collections {
    /// Runs `preview` (the one rule) and, when it refuses an order it has already verified,
    /// loads that order for display. Changes nothing.
    func inspect(token text: String, by staff: Identity, logger: Logger) async throws -> DeskScan {
        do {
            return DeskScan(order: try await preview(token: text, by: staff, logger: logger), refusal: nil)
        } catch let refusal as OrderError {
            switch refusal {
            case .notReady, .alreadyCollected, .orderCancelled, .paymentRequired:
                // `preview` reaches these only after checking the signature, the expiry and the
                // store, so the order id in the token can be trusted.
                let claims = try PickupToken(text: Collections.normalized(text)).claims
                let order = try await OrderQueries.order(id: OrderID(claims.orderID), on: database.client, logger: logger)
                return DeskScan(order: order, refusal: refusal)
            default:
                return DeskScan(order: nil, refusal: refusal)
            }
        }
    }
}
