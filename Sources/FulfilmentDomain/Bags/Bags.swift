import Foundation
import Logging

/// Bags and the places they wait in (issue 47). Staff stage a packed order's bag by scanning its
/// code into one of their store's places; a manager keeps the store's list of places. Another
/// store's bag or place is not found: the caller's `StoreScope` is in every query.
package struct Bags: Sendable {
    package let database: Database

    /// The store's places, for its staff (a manager's or staff member's own store).
    package func places(store: StoreID, by identity: Identity, logger: Logger) async throws -> [StagingPlace] {
        try await BagQueries.places(store: store, scope: try StoreScope(staff: identity), on: database.client, logger: logger)
    }

    /// Replaces the store's places, in one transaction. A place removed, or turned into another
    /// kind, while it holds bags not yet handed over is refused (`place_in_use`): the places are
    /// locked first, and staging a bag holds its place (`FOR SHARE`), so the two wait for each other.
    package func setPlaces(
        store: StoreID, to drafts: [StagingPlace.Draft], by identity: Identity, logger: Logger
    ) async throws -> [StagingPlace] {
        let scope = try StoreScope(staff: identity)
        // The access table already refused another store's people; the writes below bind `store`.
        guard scope.contains(store) else { throw OrderError.storeNotFound }
        return try await database.transaction(logger: logger) { connection in
            // Locked first, then counted by a statement of its own: a bag staged while this
            // waited for the lock is counted (the locking statement's count is of its snapshot).
            _ = try await BagQueries.places(store: store, scope: scope, lock: true, on: connection, logger: logger)
            let current = try await BagQueries.places(store: store, scope: scope, on: connection, logger: logger)
            for place in current where place.bagsHeld > 0 {
                guard drafts.contains(where: { $0.name == place.name && $0.kind == place.kind }) else {
                    throw BagError.placeInUse(name: place.name, bags: place.bagsHeld)
                }
            }
            try await BagQueries.replacePlaces(store: store, with: drafts, on: connection, logger: logger)
            return try await BagQueries.places(store: store, scope: scope, on: connection, logger: logger)
        }
    }

    /// Stages the bag with `code` in `place`, both of the caller's store; a bag already staged
    /// moves. Only a packed (or out for delivery) order's bags, not yet handed over; a chilled bag
    /// only in a fridge and a frozen one only in a freezer (`wrong_place_for_zone`). Returns the
    /// order as it now stands.
    package func stage(code: String, in place: StagingPlaceID, by identity: Identity, logger: Logger) async throws -> (Order, Int) {
        let scope = try StoreScope(staff: identity)
        return try await database.transaction(logger: logger) { connection in
            guard let bag = try await BagQueries.lockBag(code: code, scope: scope, on: connection, logger: logger) else {
                throw BagError.bagNotFound
            }
            guard let kind = try await BagQueries.lockPlace(place, scope: scope, on: connection, logger: logger) else {
                throw BagError.placeNotFound
            }
            guard bag.status == .packaged || bag.status == .delivering, !bag.handedOver else {
                throw BagError.notStageable(bag.status)
            }
            guard kind.holds(bag.zone) else { throw BagError.wrongPlaceForZone(zone: bag.zone, kind: kind) }
            try await BagQueries.stage(order: bag.order, number: bag.number, in: place, on: connection, logger: logger)
            return (try await Orders.changed(bag.order, on: connection, logger: logger), bag.number)
        }
    }

    /// What a client sent as an order's bags: 1 to 50 zones (`invalid_field` naming `bags`
    /// otherwise), or none (one ambient bag).
    package static func zones(_ sent: [BagZone]?) throws(BagError) -> [BagZone] {
        guard let sent else { return [.ambient] }
        guard OrderBag.count.contains(sent.count) else {
            throw .invalidBags(field: "bags", message: "An order is packed in 1 to 50 bags.")
        }
        return sent
    }
}
