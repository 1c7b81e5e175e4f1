import Foundation
import Logging
import PostgresNIO

/// The SQL of stores and their aisles.
enum StoreQueries {
    static func all(on client: PostgresClient, logger: Logger) async throws -> [StoreRecord] {
        let rows = try await client.run(
            "SELECT id, code, name, address, currency::text FROM stores ORDER BY name, id", logger: logger)
        var stores: [StoreRecord] = []
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            stores.append(StoreRecord(id: id, code: code, name: name, address: address, currency: currency))
        }
        return stores
    }

    static func store(id: UUID, on client: PostgresClient, logger: Logger) async throws -> StoreRecord? {
        let rows = try await client.run(
            "SELECT id, code, name, address, currency::text FROM stores WHERE id = \(id)", logger: logger)
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            return StoreRecord(id: id, code: code, name: name, address: address, currency: currency)
        }
        return nil
    }

    /// A store by its code (`QC-KGN`) or id, as the import command is given it.
    static func store(codeOrID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoreRecord? {
        let id = UUID(uuidString: codeOrID)
        let rows = try await connection.run(
            "SELECT id, code, name, address, currency::text FROM stores WHERE code = \(codeOrID) OR id = \(id)",
            logger: logger)
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            return StoreRecord(id: id, code: code, name: name, address: address, currency: currency)
        }
        return nil
    }

    /// The store's aisles in walk order.
    static func aisles(store storeID: UUID, on client: PostgresClient, logger: Logger) async throws -> [AisleRecord] {
        let rows = try await client.run(
            "SELECT id, code, name, walk_order, zone FROM aisles WHERE store_id = \(storeID) ORDER BY walk_order",
            logger: logger)
        var aisles: [AisleRecord] = []
        for try await (id, code, name, walkOrder, zone) in rows.decode((UUID, String, String, Int, String).self) {
            aisles.append(AisleRecord(id: id, code: code, name: name, walkOrder: walkOrder, zone: zone))
        }
        return aisles
    }
}

/// The chain admin's writes: stores and aisles (issue 13). Unique codes and walk orders are
/// the database's (`stores.code`, `aisles (store_id, code)`, `aisles (store_id, walk_order)`);
/// `Stores` turns their violations into clear 409s.
extension StoreQueries {
    private static let storeColumns = "id, code, name, address, currency::text"
    private static let aisleColumns = "id, code, name, walk_order, zone"

    static func insertStore(
        code: String, name: String, address: String, currency: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> StoreRecord {
        let rows = try await connection.run(
            """
            INSERT INTO stores (code, name, address, currency) VALUES (\(code), \(name), \(address), \(currency))
            RETURNING \(unescaped: storeColumns)
            """, logger: logger)
        return try await firstStore(rows)!
    }

    /// Changes the fields given (nil leaves one as it is); nil when there is no such store.
    static func updateStore(
        id: StoreID, code: String?, name: String?, address: String?, on connection: PostgresConnection, logger: Logger
    ) async throws -> StoreRecord? {
        let rows = try await connection.run(
            """
            UPDATE stores SET code = coalesce(\(code), code), name = coalesce(\(name), name), address = coalesce(\(address), address)
            WHERE id = \(id.rawValue)
            RETURNING \(unescaped: storeColumns)
            """, logger: logger)
        return try await firstStore(rows)
    }

    static func insertAisle(
        store: StoreID, code: String, name: String, walkOrder: Int, zone: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> AisleRecord {
        let rows = try await connection.run(
            """
            INSERT INTO aisles (store_id, code, name, walk_order, zone)
            VALUES (\(store.rawValue), \(code), \(name), \(walkOrder), \(zone))
            RETURNING \(unescaped: aisleColumns)
            """, logger: logger)
        return try await firstAisle(rows)!
    }

    /// Changes the fields given of one of `store`'s aisles; nil when the store has no such aisle.
    static func updateAisle(
        _ id: UUID, store: StoreID, code: String?, name: String?, walkOrder: Int?, zone: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> AisleRecord? {
        let rows = try await connection.run(
            """
            UPDATE aisles SET code = coalesce(\(code), code), name = coalesce(\(name), name),
                walk_order = coalesce(\(walkOrder)::int4, walk_order), zone = coalesce(\(zone), zone)
            WHERE id = \(id) AND store_id = \(store.rawValue)
            RETURNING \(unescaped: aisleColumns)
            """, logger: logger)
        return try await firstAisle(rows)
    }

    /// Locks one of `store`'s aisles against new placements while it is removed, and says how
    /// many products are placed in it; nil when the store has no such aisle. Placing a product
    /// checks the aisle with a key-share lock, so it waits for this one: no placement slips in
    /// between the count and the delete.
    static func lockAisleForRemoval(_ id: UUID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let locked = try await connection.run(
            "SELECT 1 FROM aisles WHERE id = \(id) AND store_id = \(store.rawValue) FOR UPDATE", logger: logger)
        var found = false
        for try await _ in locked { found = true }
        guard found else { return nil }
        let rows = try await connection.run(
            "SELECT count(*)::int8 FROM stock WHERE store_id = \(store.rawValue) AND aisle_id = \(id)", logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    static func deleteAisle(_ id: UUID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("DELETE FROM aisles WHERE id = \(id) AND store_id = \(store.rawValue)", logger: logger)
    }

    private static func firstStore(_ rows: SQLRows) async throws -> StoreRecord? {
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            return StoreRecord(id: id, code: code, name: name, address: address, currency: currency)
        }
        return nil
    }

    private static func firstAisle(_ rows: SQLRows) async throws -> AisleRecord? {
        for try await (id, code, name, walkOrder, zone) in rows.decode((UUID, String, String, Int, String).self) {
            return AisleRecord(id: id, code: code, name: name, walkOrder: walkOrder, zone: zone)
        }
        return nil
    }
}
