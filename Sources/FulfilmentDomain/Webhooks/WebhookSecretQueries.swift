import Foundation
import Logging
import PostgresNIO

/// The SQL of webhook secrets at rest (migration 023): the data keys rows may be sealed under
/// (`data_keys`, each with its fingerprint) and the sealed secrets of `webhook_endpoints`.
/// `WebhookSecretStorage` holds the rules and the lock order; the start-up step and the rotation
/// run on a libpq connection of their own, in one transaction each.
package enum WebhookSecretQueries {
    /// The newest data key's id, its row held `FOR KEY SHARE` until the transaction ends; nil
    /// when the database lists none.
    package static func newestKeyForWriting(on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let rows = try await connection.run("SELECT id FROM data_keys ORDER BY id DESC LIMIT 1 FOR KEY SHARE", logger: logger)
        var newest: Int32?
        for try await id in rows.decode(Int32.self) { newest = id }
        return newest.map(Int.init)
    }

    /// Locks `data_keys` whole: writers (which take the newest row `FOR KEY SHARE`) wait.
    package static func lockDataKeys(_ db: LibPQConnection) throws {
        try db.execute("LOCK TABLE data_keys IN EXCLUSIVE MODE")
    }

    /// Locks the endpoints against every change until the transaction ends.
    package static func lockEndpoints(_ db: LibPQConnection) throws {
        try db.execute("LOCK TABLE webhook_endpoints IN SHARE ROW EXCLUSIVE MODE")
    }

    /// Registers `key` when the database lists no key yet (the first instance to start).
    package static func registerFirst(_ key: DataKey, _ db: LibPQConnection) throws {
        try db.execute(
            "INSERT INTO data_keys (id, fingerprint) SELECT $1, decode($2, 'hex') WHERE NOT EXISTS (SELECT 1 FROM data_keys)",
            parameters: [String(key.id), key.fingerprint.hex])
    }

    package static func register(_ key: DataKey, _ db: LibPQConnection) throws {
        try db.execute("INSERT INTO data_keys (id, fingerprint) VALUES ($1, decode($2, 'hex'))", parameters: [String(key.id), key.fingerprint.hex])
    }

    /// Every data key the database lists, oldest first, with its fingerprint in hex.
    package static func registeredKeys(_ db: LibPQConnection) throws -> [(id: String?, fingerprint: String?)] {
        try db.execute("SELECT id, encode(fingerprint, 'hex') FROM data_keys ORDER BY id").map { ($0[0], $0[1]) }
    }

    /// Forgets every data key but `key` (the foreign key allows it only once no row uses them).
    package static func deleteKeys(except key: DataKey, _ db: LibPQConnection) throws {
        try db.execute("DELETE FROM data_keys WHERE id <> $1", parameters: [String(key.id)])
    }

    /// The secrets still stored plain (written before migration 023), their rows locked.
    package static func plainSecrets(_ db: LibPQConnection) throws -> [(endpoint: WebhookEndpointID, secret: String)] {
        try db.execute("SELECT id, secret FROM webhook_endpoints WHERE secret IS NOT NULL FOR UPDATE").compactMap { row in
            guard let id = row[0].flatMap({ text in WebhookEndpointID(text) }), let secret = row[1] else { return nil }
            return (id, secret)
        }
    }

    /// Every endpoint's secret as stored, in endpoint order.
    package static func allSecrets(_ db: LibPQConnection) throws -> [StoredWebhookSecret] {
        try db.execute("SELECT id, secret, secret_key_id, encode(secret_sealed, 'base64') FROM webhook_endpoints ORDER BY id")
            .compactMap { row in
                guard let id = row[0].flatMap({ text in WebhookEndpointID(text) }) else { return nil }
                return StoredWebhookSecret(
                    endpoint: id, plain: row[1], keyID: Int(row[2] ?? "") ?? 0,
                    sealed: row[3].flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) } ?? Data())
            }
    }

    /// Stores `endpoint`'s secret sealed under `keyID`, clearing any plain copy.
    package static func storeSealed(_ sealed: Data, endpoint: WebhookEndpointID, keyID: Int, _ db: LibPQConnection) throws {
        try db.execute(
            "UPDATE webhook_endpoints SET secret = NULL, secret_key_id = $2, secret_sealed = decode($3, 'hex') WHERE id = $1",
            parameters: [endpoint.description, String(keyID), sealed.hex])
    }

    /// Runs `body` in one transaction on a connection of its own.
    package static func inTransaction<T>(_ database: ConnectionInfo, _ body: (LibPQConnection) throws -> T) throws -> T {
        let db = try LibPQConnection(database)
        try db.execute("BEGIN")
        do {
            let result = try body(db)
            try db.execute("COMMIT")
            return result
        } catch {
            _ = try? db.execute("ROLLBACK")
            throw error
        }
    }
}
