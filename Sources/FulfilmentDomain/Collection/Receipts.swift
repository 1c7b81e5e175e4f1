import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// A receipt issued again at the desk, for a customer who lost theirs: the one way staff ever
/// hold a pickup token. The order's token is replaced (the old QR stops working, answering
/// `invalid_token` with reason `superseded`), and who did it, when and why is kept in
/// `receipt_reissues`, in the same transaction.
package struct Receipts: Sendable {
    package let database: Database
    /// The signer of the moment (the keyring is reloaded when the keys rotate).
    package let signing: @Sendable () -> PickupTokenSigner

    package struct Reissue: Sendable {
        package var order: Order
        package var token: PickupToken
        package var reissuedAt: Date
    }

    /// What a fresh token for an order needs: its store and the store's token number, the
    /// expiry a token issued now gets, and the current token's.
    package struct TokenFacts: Sendable {
        package var store: StoreID
        package var tokenNumber: Int32
        package var freshExpiry: Int64
        package var oldExpiry: Int64
    }

    /// Staff of the order's store (`scope`) re-issue its receipt; another store's order is not found.
    package func reissue(order id: OrderID, reason: String, by staff: UserID, in scope: StoreScope, logger: Logger) async throws -> Reissue {
        try await database.transaction(logger: logger) { connection in
            guard let facts = try await ReceiptQueries.lockedForReissue(id, in: scope, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard var order = try await OrderQueries.order(id: id, on: connection, logger: logger) else { throw OrderError.orderNotFound }
            switch order.status {
            case .cancelled: throw OrderError.orderCancelled
            case .completed:
                throw OrderError.alreadyCollected(at: order.collectedAt ?? order.createdAt, by: order.history.last?.actorName ?? "staff")
            case .pending, .packaged, .delivering: break
            }
            // The uncollected-order deadline afresh (`facts.freshExpiry`: for an order with a slot,
            // its end plus the grace period, as at checkout; else a collection window from now;
            // the rule is `collection_deadline`, see `StoreCalendar.collectionDeadline(for:)`);
            // never the very claims of the old token (Ed25519 signatures are deterministic, so
            // equal claims would give the same text back).
            let expiry = facts.freshExpiry == facts.oldExpiry ? facts.freshExpiry + 1 : facts.freshExpiry
            let token = try signing().sign(
                PickupToken.Claims(
                    orderID: id.rawValue, storeNumber: UInt32(facts.tokenNumber), expiry: UInt32(clamping: expiry)))
            let at = try await ReceiptQueries.reissue(
                id, store: facts.store, token: token, by: staff, reason: reason, on: connection, logger: logger)
            order.pickup = PickupRecord(text: token.text, expiresAt: token.claims.expiresAt, usedAt: nil)
            return Reissue(order: order, token: token, reissuedAt: at)
        }
    }
}
