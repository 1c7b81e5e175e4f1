import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Someone else collects (issue 48): the order's customer names a person and gets a collector
/// pass for them (a pickup token of its own, `PickupToken` format version 2, expiring with the
/// receipt), lists the order's passes and revokes one. The desk accepts a live pass as it
/// accepts the receipt (`Collections`, `collect_order`).
package struct CollectorPasses: Sendable {
    package let database: Database
    /// The signer of the moment (the keyring is reloaded when the keys rotate).
    package let signing: @Sendable () -> PickupTokenSigner

    /// A new pass for `name` on the customer's own open order; another's order is not found.
    package func create(order id: OrderID, name raw: String, by customer: UserID, logger: Logger) async throws -> CollectorPass {
        guard let name = CollectorPass.name(raw) else { throw CollectorPassError.invalidName }
        return try await database.transaction(logger: logger) { connection in
            guard let facts = try await CollectorPassQueries.lockedOrder(id, customer: customer, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard facts.status.canTransition(to: .completed) || facts.status == .pending else {
                throw CollectorPassError.orderClosed(facts.status)
            }
            guard facts.live < CollectorPass.maximumLive else { throw CollectorPassError.tooMany }
            let passID = UUID()
            let token = try signing().sign(
                PickupToken.Claims(
                    orderID: id.rawValue, storeNumber: UInt32(facts.tokenNumber), expiry: UInt32(clamping: facts.expiry),
                    collectorPassID: passID))
            return try await CollectorPassQueries.insert(
                passID, order: id, store: facts.store, name: name, token: token, by: customer, on: connection, logger: logger)
        }
    }

    /// The order's passes for its customer or staff of its store; another's order is not found.
    package func list(order id: OrderID, visibleTo identity: Identity, logger: Logger) async throws -> [CollectorPass] {
        let scope = try? StoreScope(staff: identity)
        guard
            let passes = try await CollectorPassQueries.list(
                id, customer: identity.userID, scope: scope, on: database.client, logger: logger)
        else { throw OrderError.orderNotFound }
        return passes
    }

    /// Revokes the customer's pass; revoking twice answers the pass as it is. A pass that already
    /// collected the order cannot be revoked.
    package func revoke(pass: UUID, of order: OrderID, by customer: UserID, logger: Logger) async throws -> CollectorPass {
        let after = try await database.transaction(logger: logger) { connection in
            try await CollectorPassQueries.revoke(pass, order: order, customer: customer, on: connection, logger: logger)
        }
        guard let after else { throw CollectorPassError.notFound }
        if let used = after.usedAt { throw CollectorPassError.used(at: used) }
        return after
    }

    /// The pass a desk scanned (its signature already verified), or nil.
    package func scanned(_ text: String, logger: Logger) async throws -> CollectorPass? {
        try await CollectorPassQueries.scanned(text, on: database.client, logger: logger)
    }
}
