import Foundation
import Logging
import PostgresNIO

/// The SQL of bags and staging places (issue 47: `order_bags`, `staging_places`, migration 064).
package enum BagQueries {
    /// Writes the bags of an order being packed, numbered in the order given, each coded with the
    /// order's number and its own ("1042-2"); in the packing transaction.
    package static func record(
        _ zones: [BagZone], order: OrderID, store: StoreID, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO order_bags (store_id, order_id, number, zone, code)
            SELECT o.store_id, o.id, z.number, z.zone, o.number || '-' || z.number
            FROM orders o, unnest(\(zones.map(\.rawValue))::text[]) WITH ORDINALITY AS z(zone, number)
            WHERE o.id = \(order.rawValue) AND o.store_id = \(store.rawValue)
            """, logger: logger)
    }

    /// The store's places in the manager's order, each with the bags it holds now; only within `scope`.
    package static func places(
        store: StoreID, scope: StoreScope, lock: Bool = false, on connection: some SQLRunner, logger: Logger
    ) async throws -> [StagingPlace] {
        let rows = try await connection.run(
            """
            SELECT p.id, p.name, p.kind,
                   (SELECT count(*) FROM order_bags b WHERE b.place_id = p.id AND b.handed_over_at IS NULL) AS bags_held
            FROM staging_places p
            WHERE p.store_id = \(store.rawValue) AND \(scope, column: "p.store_id")
            ORDER BY p.position, p.name
            \(unescaped: lock ? "FOR UPDATE OF p" : "")
            """, logger: logger)
        var places: [StagingPlace] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            places.append(
                StagingPlace(
                    id: StagingPlaceID(try r["id"].decode(UUID.self)), name: try r["name"].decode(String.self),
                    kind: try r["kind"].stored(StagingPlaceKind.self), bagsHeld: Int(try r["bags_held"].decode(Int64.self))))
        }
        return places
    }

    /// Replaces the store's places: those not named are removed, the named ones written in order
    /// (a name already kept keeps its id, so the bags in it stay there); in the caller's transaction.
    package static func replacePlaces(
        store: StoreID, with places: [StagingPlace.Draft], on connection: PostgresConnection, logger: Logger
    ) async throws {
        let names = places.map(\.name)
        try await connection.run(
            "DELETE FROM staging_places WHERE store_id = \(store.rawValue) AND NOT (name = ANY(\(names)::text[]))", logger: logger)
        try await connection.run(
            """
            INSERT INTO staging_places (store_id, name, kind, position)
            SELECT \(store.rawValue), u.name, u.kind, (u.position - 1)::int4
            FROM unnest(\(names)::text[], \(places.map(\.kind.rawValue))::text[]) WITH ORDINALITY AS u(name, kind, position)
            ON CONFLICT (store_id, name) DO UPDATE SET kind = excluded.kind, position = excluded.position
            """, logger: logger)
    }

    /// The bag with `code` in the caller's store, locked, with its order's status and id.
    package static func lockBag(
        code: String, scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> (order: OrderID, number: Int, zone: BagZone, status: OrderStatus, handedOver: Bool)? {
        let rows = try await connection.run(
            """
            SELECT b.order_id, b.number, b.zone, o.status, b.handed_over_at IS NOT NULL AS handed_over
            FROM order_bags b JOIN orders o ON o.id = b.order_id
            WHERE b.code = \(code) AND b.store_id = \(scope) AND o.store_id = \(scope)
            FOR UPDATE OF b
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (
                OrderID(try r["order_id"].decode(UUID.self)), Int(try r["number"].decode(Int32.self)), try r["zone"].stored(BagZone.self),
                try r["status"].stored(OrderStatus.self), try r["handed_over"].decode(Bool.self)
            )
        }
        return nil
    }

    /// The place's kind, when it is one of the caller's store's; held (`FOR SHARE`) until the
    /// transaction ends, so the manager cannot remove it while a bag goes in.
    package static func lockPlace(
        _ id: StagingPlaceID, scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> StagingPlaceKind? {
        let rows = try await connection.run(
            "SELECT p.kind FROM staging_places p WHERE p.id = \(id.rawValue) AND p.store_id = \(scope) FOR SHARE", logger: logger)
        for try await row in rows { return try row.makeRandomAccess()["kind"].stored(StagingPlaceKind.self) }
        return nil
    }

    /// Puts the bag in the place, now.
    package static func stage(
        order: OrderID, number: Int, in place: StagingPlaceID, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            UPDATE order_bags SET place_id = \(place.rawValue), staged_at = now()
            WHERE order_id = \(order.rawValue) AND number = \(Int32(clamping: number))
            """, logger: logger)
    }
}
