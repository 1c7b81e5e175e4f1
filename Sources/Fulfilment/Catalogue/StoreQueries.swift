import Foundation
import Logging
import PostgresNIO

/// The SQL of stores and their aisles.
enum StoreQueries {
    static func all(on client: PostgresClient, logger: Logger) async throws -> [StoreRecord] {
        let rows = try await client.query(
            "SELECT id, code, name, address, currency::text FROM stores ORDER BY name, id", logger: logger)
        var stores: [StoreRecord] = []
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            stores.append(StoreRecord(id: id, code: code, name: name, address: address, currency: currency))
        }
        return stores
    }

    static func store(id: UUID, on client: PostgresClient, logger: Logger) async throws -> StoreRecord? {
        let rows = try await client.query(
            "SELECT id, code, name, address, currency::text FROM stores WHERE id = \(id)", logger: logger)
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            return StoreRecord(id: id, code: code, name: name, address: address, currency: currency)
        }
        return nil
    }

    /// A store by its code (`QC-KGN`) or id, as the import command is given it.
    static func store(codeOrID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoreRecord? {
        let id = UUID(uuidString: codeOrID)
        let rows = try await connection.query(
            "SELECT id, code, name, address, currency::text FROM stores WHERE code = \(codeOrID) OR id = \(id)",
            logger: logger)
        for try await (id, code, name, address, currency) in rows.decode((UUID, String, String, String, String).self) {
            return StoreRecord(id: id, code: code, name: name, address: address, currency: currency)
        }
        return nil
    }

    /// The store's aisles in walk order.
    static func aisles(store storeID: UUID, on client: PostgresClient, logger: Logger) async throws -> [AisleRecord] {
        let rows = try await client.query(
            "SELECT id, code, name, walk_order, zone FROM aisles WHERE store_id = \(storeID) ORDER BY walk_order",
            logger: logger)
        var aisles: [AisleRecord] = []
        for try await (id, code, name, walkOrder, zone) in rows.decode((UUID, String, String, Int, String).self) {
            aisles.append(AisleRecord(id: id, code: code, name: name, walkOrder: walkOrder, zone: zone))
        }
        return aisles
    }
}
