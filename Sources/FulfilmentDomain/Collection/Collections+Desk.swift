import Foundation
import Logging

/// What the desk shows for a scan: `Collections.preview`'s verdict, plus the order behind it
/// whenever the token is genuine and of this store (so "pay first", "not ready" and "already
/// collected" still show whose order it is and what is in it), and the totes it was packed in.
package struct DeskScan: Sendable {
    /// Nil when the token is forged, expired, unknown or of another store.
    package var order: Order?
    /// Nil when the order can be handed over now.
    package var refusal: OrderError?
    /// The totes holding the shown order's bags (none when no order is shown).
    package var totes: [String] = []
}

extension Collections {
    /// Runs the preview's one rule (`check`) and, when it refuses an order whose token is
    /// genuine and of this store, shows that order too, with its totes. Changes nothing; one
    /// statement, and one more for the totes of an order shown.
    package func inspect(token scanned: String, by staff: Identity, logger: Logger) async throws -> DeskScan {
        var scan = try await verdict(token: scanned, by: staff, logger: logger)
        if let order = scan.order { scan.totes = try await ToteQueries.totes(of: order.id, on: database.client, logger: logger) }
        return scan
    }

    private func verdict(token scanned: String, by staff: Identity, logger: Logger) async throws -> DeskScan {
        let text = Collections.normalized(scanned)
        var order: Order?
        do {
            (_, order) = try await read(text, by: .resolved(staff), logger: logger)
            try Collections.check(order, issuedWith: text, in: try StoreScope(staff: staff))
            return DeskScan(order: order, refusal: nil)
        } catch let refusal as OrderError {
            switch refusal {
            case .notReady, .alreadyCollected, .orderCancelled, .paymentRequired:
                // `check` reaches these only after the signature, the expiry and the store
                // passed, so the order the token names is this store's to show.
                return DeskScan(order: order, refusal: refusal)
            default:
                return DeskScan(order: nil, refusal: refusal)
            }
        }
    }
}
