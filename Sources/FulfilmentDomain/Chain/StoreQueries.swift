import Foundation
import Logging
import PostgresNIO

/// The SQL of stores and their aisles.
package enum StoreQueries {
    /// The columns ``stores(_:)`` reads, over `stores` (unqualified, so `RETURNING` takes them too).
    private static let storeColumns =
        "id, code, name, address, currency::text AS currency, latitude, longitude, extract(day FROM new_arrival_window)::int8 AS new_arrival_days, "
        + "(extract(epoch FROM reminder_before) / 3600)::int8 AS reminder_hours, logo_url, phone, "
        + "tax_jurisdiction, tax_number"
    /// The columns ``aisles(_:)`` reads, over `aisles`.
    private static let aisleColumns = "id, code, name, walk_order, zone"

    package static func all(on client: PostgresClient, logger: Logger) async throws -> [StoreRecord] {
        try await stores(client.read("SELECT \(unescaped: storeColumns) FROM stores ORDER BY name, id", logger: logger))
    }

    package static func store(id: StoreID, on client: PostgresClient, logger: Logger) async throws -> StoreRecord? {
        try await stores(client.read("SELECT \(unescaped: storeColumns) FROM stores WHERE id = \(id.rawValue)", logger: logger)).first
    }

    /// A store by its code (`QC-KGN`) or id, as the import command is given it.
    package static func store(codeOrID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoreRecord? {
        let id = UUID(uuidString: codeOrID)
        let rows = try await connection.run(
            "SELECT \(unescaped: storeColumns) FROM stores WHERE code = \(codeOrID) OR id = \(id)", logger: logger)
        return try await stores(rows).first
    }

    /// The store's aisles in walk order.
    package static func aisles(store: StoreID, on client: PostgresClient, logger: Logger) async throws -> [AisleRecord] {
        try await aisles(
            client.run(
                "SELECT \(unescaped: aisleColumns) FROM aisles WHERE store_id = \(store.rawValue) ORDER BY walk_order", logger: logger))
    }

    /// The ids of `store`'s aisles by code, for the CSV import's locations.
    package static func aisleIDs(store: StoreID, on connection: PostgresConnection, logger: Logger) async throws -> [String: AisleID] {
        var aisles: [String: AisleID] = [:]
        let rows = try await connection.run("SELECT code, id FROM aisles WHERE store_id = \(store.rawValue)", logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            aisles[try r["code"].decode(String.self)] = AisleID(try r["id"].decode(UUID.self))
        }
        return aisles
    }

    private static func stores(_ rows: SQLRows) async throws -> [StoreRecord] {
        var stores: [StoreRecord] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let latitude = try r["latitude"].decode(Double?.self)
            let longitude = try r["longitude"].decode(Double?.self)
            let location = latitude.flatMap { latitude in longitude.map { GeoPoint(latitude: latitude, longitude: $0) } }
            stores.append(
                StoreRecord(
                    id: StoreID(try r["id"].decode(UUID.self)), code: try r["code"].decode(String.self), name: try r["name"].decode(String.self),
                    address: try r["address"].decode(String.self), currency: try r["currency"].decode(String.self), location: location,
                    newArrivalDays: Int(try r["new_arrival_days"].decode(Int64.self)),
                    reminderHours: Int(try r["reminder_hours"].decode(Int64.self)), logoURL: try r["logo_url"].decode(String?.self),
                    phone: try r["phone"].decode(String.self), taxJurisdiction: try r["tax_jurisdiction"].decode(String?.self),
                    taxNumber: try r["tax_number"].decode(String?.self)))
        }
        return stores
    }

    private static func aisles(_ rows: SQLRows) async throws -> [AisleRecord] {
        var aisles: [AisleRecord] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            aisles.append(
                AisleRecord(
                    id: AisleID(try r["id"].decode(UUID.self)), code: try r["code"].decode(String.self), name: try r["name"].decode(String.self),
                    walkOrder: try r["walk_order"].decode(Int.self), zone: try r["zone"].decode(String.self)))
        }
        return aisles
    }
}

/// The chain admin's writes: stores and aisles (issue 13). Unique codes and walk orders are
/// the database's (`stores.code`, `aisles (store_id, code)`, `aisles (store_id, walk_order)`);
/// `ChainError` turns their violations into clear 409s.
extension StoreQueries {
    package static func insertStore(
        code: String, name: String, address: String, currency: String, location: GeoPoint?, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> StoreRecord {
        let rows = try await connection.run(
            """
            INSERT INTO stores (code, name, address, currency, latitude, longitude)
            VALUES (\(code), \(name), \(address), \(currency), \(location?.latitude), \(location?.longitude))
            RETURNING \(unescaped: storeColumns)
            """, logger: logger)
        return try await stores(rows)[0]
    }

    /// Changes the fields given (nil leaves one as it is); nil when there is no such store.
    package static func updateStore(
        id: StoreID, code: String?, name: String?, address: String?, phone: String? = nil, location: GeoPoint?, newArrivalDays: Int? = nil,
        reminderHours: Int? = nil, logoURL: String? = nil, taxNumber: String? = nil, on connection: PostgresConnection, logger: Logger
    ) async throws -> StoreRecord? {
        let rows = try await connection.run(
            """
            UPDATE stores SET code = coalesce(\(code), code), name = coalesce(\(name), name), address = coalesce(\(address), address),
                phone = coalesce(\(phone), phone),
                latitude = coalesce(\(location?.latitude)::float8, latitude), longitude = coalesce(\(location?.longitude)::float8, longitude),
                new_arrival_window = coalesce(make_interval(days => \(newArrivalDays)::int), new_arrival_window),
                reminder_before = coalesce(make_interval(hours => \(reminderHours)::int), reminder_before),
                logo_url = CASE WHEN \(logoURL)::text IS NULL THEN logo_url ELSE nullif(\(logoURL)::text, '') END,
                tax_number = CASE WHEN \(taxNumber)::text IS NULL THEN tax_number ELSE nullif(\(taxNumber)::text, '') END
            WHERE id = \(id.rawValue)
            RETURNING \(unescaped: storeColumns)
            """, logger: logger)
        return try await stores(rows).first
    }

    package static func insertAisle(
        store: StoreID, code: String, name: String, walkOrder: Int, zone: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> AisleRecord {
        let rows = try await connection.run(
            """
            INSERT INTO aisles (store_id, code, name, walk_order, zone)
            VALUES (\(store.rawValue), \(code), \(name), \(walkOrder), \(zone))
            RETURNING \(unescaped: aisleColumns)
            """, logger: logger)
        return try await aisles(rows)[0]
    }

    /// Changes the fields given of one of `store`'s aisles; nil when the store has no such aisle.
    package static func updateAisle(
        _ id: AisleID, store: StoreID, code: String?, name: String?, walkOrder: Int?, zone: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> AisleRecord? {
        let rows = try await connection.run(
            """
            UPDATE aisles SET code = coalesce(\(code), code), name = coalesce(\(name), name),
                walk_order = coalesce(\(walkOrder)::int4, walk_order), zone = coalesce(\(zone), zone)
            WHERE id = \(id.rawValue) AND store_id = \(store.rawValue)
            RETURNING \(unescaped: aisleColumns)
            """, logger: logger)
        return try await aisles(rows).first
    }

    /// Locks one of `store`'s aisles against new placements while it is removed, and says how
    /// many products are placed in it; nil when the store has no such aisle. Placing a product
    /// checks the aisle with a key-share lock, so it waits for this one: no placement slips in
    /// between the count and the delete.
    package static func lockAisleForRemoval(_ id: AisleID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let locked = try await connection.run(
            "SELECT 1 FROM aisles WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) FOR UPDATE", logger: logger)
        var found = false
        for try await _ in locked { found = true }
        guard found else { return nil }
        let rows = try await connection.run(
            "SELECT count(*)::int8 FROM stock WHERE store_id = \(store.rawValue) AND aisle_id = \(id.rawValue)", logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    package static func deleteAisle(_ id: AisleID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("DELETE FROM aisles WHERE id = \(id.rawValue) AND store_id = \(store.rawValue)", logger: logger)
    }
}
