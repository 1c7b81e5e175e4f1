import Foundation
import Logging

/// A store's rota and pick estimate (issue 47), for its manager or the chain's admin
/// (`storeManagerOrAdmin`; another store's is not found, the scope being in the query).
extension PickupSlots {
    /// The store's rota (the default one when it keeps none) and pick estimate.
    package func rota(store: StoreID, by identity: Identity, logger: Logger) async throws -> RotaView {
        let scope = try StoreScope(managerOrAdmin: identity)
        guard try await RotaQueries.storeExists(store, scope: scope, on: database.client, logger: logger) else {
            throw OrderError.storeNotFound
        }
        return try await RotaQueries.rota(store: store, on: database.client, logger: logger)
    }

    /// Replaces the store's rota and learns its pick estimate again, in one transaction. Work
    /// already booked stays booked: fewer pickers only stop new bookings until enough is freed.
    package func setRota(store: StoreID, to rota: StoreRota, by identity: Identity, logger: Logger) async throws -> RotaView {
        let scope = try StoreScope(managerOrAdmin: identity)
        return try await database.transaction(logger: logger) { connection in
            guard try await RotaQueries.storeExists(store, scope: scope, on: connection, logger: logger) else {
                throw OrderError.storeNotFound
            }
            try await RotaQueries.replace(store: store, with: rota, on: connection, logger: logger)
            return try await RotaQueries.rota(store: store, on: connection, logger: logger)
        }
    }
}
