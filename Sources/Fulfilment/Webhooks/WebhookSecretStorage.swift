import Foundation
import Logging
import PostgresNIO

/// The SQL of webhook secrets at rest (migration 023): which data keys rows may be sealed under
/// (`data_keys`, each with its fingerprint), the start-up step that seals what is still plain,
/// and the rotation to a new data key.
///
/// Lock order, the same everywhere so none waits on another in a circle: `data_keys` first, then
/// `webhook_endpoints`. A writer takes the newest key row `FOR KEY SHARE`; the start-up step and
/// the rotation lock `data_keys` whole, then the endpoints.
public enum WebhookSecretStorage {
    /// The key a new secret is sealed under, held `FOR KEY SHARE` until the transaction ends, so a
    /// rotation waits for this write and then re-seals it too.
    static func writingKey(on connection: PostgresConnection, keys: DataKeyStore, logger: Logger) async throws -> DataKey {
        let rows = try await connection.run(
            "SELECT id FROM data_keys ORDER BY id DESC LIMIT 1 FOR KEY SHARE", logger: logger)
        var newest: Int32?
        for try await id in rows.decode(Int32.self) { newest = id }
        guard let newest, let key = keys.key(Int(newest)) else {
            logger.error("no data key to seal a webhook secret with", metadata: ["keyID": "\(newest.map(String.init) ?? "none")"])
            throw WebhookError.noDataKey
        }
        return key
    }

    /// Run by every instance once its migrations have run, before it serves: checks that the keys
    /// it holds are the database's (the first instance registers its newest key), then seals
    /// every secret still stored plain (written before migration 023), clearing the plain text in
    /// the same statement, all in one transaction. Returns how many it sealed.
    /// - Throws: ``DataKeysError`` naming the fix when this instance's keys are not the database's.
    @discardableResult
    static func prepare(_ database: ConnectionInfo, keys: DataKeyStore, logger: Logger) async throws -> Int {
        let sealed = try await Migrator.offloaded {
            try inTransaction(database) { db in
                try db.execute("LOCK TABLE data_keys IN EXCLUSIVE MODE")
                let newest = keys.current.current
                try db.execute(
                    "INSERT INTO data_keys (id, fingerprint) SELECT $1, decode($2, 'hex') WHERE NOT EXISTS (SELECT 1 FROM data_keys)",
                    parameters: [String(newest.id), newest.fingerprint.hex])
                let key = try checkedWritingKey(db, keys: keys)
                let plain = try db.execute("SELECT id, secret FROM webhook_endpoints WHERE secret IS NOT NULL FOR UPDATE")
                for row in plain {
                    guard let id = row[0].flatMap(UUID.init(uuidString:)), let secret = row[1] else { continue }
                    try reseal(db, endpoint: id, secret: secret, with: key)
                }
                return plain.count
            }
        }
        if sealed > 0 { logger.notice("webhook secrets stored plain are now encrypted at rest", metadata: ["endpoints": "\(sealed)"]) }
        return sealed
    }

    /// What a rotation did.
    public struct Rotation: Sendable, Equatable {
        /// The data key that now seals every secret.
        public var keyID: Int
        /// How many endpoints' secrets were sealed again.
        public var endpoints: Int
        /// The ids of the keys whose files were removed.
        public var removed: [Int]
    }

    /// `fulfilment keys rotate-data-key`: a new data key, then every secret sealed again under it
    /// in one transaction, then the older key files removed.
    ///
    /// The order lets running instances (sharing `directory`) go on throughout: the new key file
    /// is written first, so an instance that reads a row sealed under it finds it in the folder;
    /// the transaction locks `data_keys` and the endpoints, so a secret being written meanwhile is
    /// committed first and re-sealed, or waits and is sealed under the new key; and it deletes
    /// the older keys' rows, which the foreign key allows only once no row uses them. Only after
    /// the commit are the older files removed. If anything fails before the commit, nothing
    /// changed and the new key file is removed again.
    /// - Throws: ``DataKeysError`` naming the fix, or the database's error.
    public static func rotate(_ database: ConnectionInfo, directory: URL, logger: Logger) async throws -> Rotation {
        var keyring = try DataKeyring.loadOrGenerate(in: directory)
        let key = try keyring.addKey()
        let keys = DataKeyStore(keyring)
        let endpoints: Int
        do {
            endpoints = try await Migrator.offloaded {
                try inTransaction(database) { db in
                    try db.execute("LOCK TABLE data_keys IN EXCLUSIVE MODE")
                    try db.execute("LOCK TABLE webhook_endpoints IN SHARE ROW EXCLUSIVE MODE")
                    _ = try checkedWritingKey(db, keys: keys, requireNewest: false)
                    try db.execute(
                        "INSERT INTO data_keys (id, fingerprint) VALUES ($1, decode($2, 'hex'))",
                        parameters: [String(key.id), key.fingerprint.hex])
                    let rows = try db.execute(
                        "SELECT id, secret, secret_key_id, encode(secret_sealed, 'base64') FROM webhook_endpoints ORDER BY id")
                    for row in rows {
                        guard let id = row[0].flatMap(UUID.init(uuidString:)) else { continue }
                        let secret: String
                        if let plain = row[1] {
                            secret = plain
                        } else {
                            let sealed = row[3].flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) } ?? Data()
                            do {
                                secret = try WebhookSecrets.open(sealed, keyID: Int(row[2] ?? "") ?? 0, endpoint: id, keys: keys)
                            } catch {
                                throw DataKeysError("Webhook endpoint \(id.uuidString.lowercased()): \(error) Nothing was changed.")
                            }
                        }
                        try reseal(db, endpoint: id, secret: secret, with: key)
                    }
                    try db.execute("DELETE FROM data_keys WHERE id <> $1", parameters: [String(key.id)])
                    return rows.count
                }
            }
        } catch {
            if let directory = keyring.directory { unlink(directory.appendingPathComponent(DataKeyring.fileName(for: key.id)).path) }
            throw error
        }
        let removed = keyring.keys.map(\.id).filter { $0 < key.id }
        try keyring.removeKeys(olderThan: key.id)
        logger.notice("data key rotated", metadata: ["keyID": "\(key.id)", "endpoints": "\(endpoints)", "removed": "\(removed)"])
        return Rotation(keyID: key.id, endpoints: endpoints, removed: removed)
    }

    /// Every key this instance holds that the database lists must have the database's fingerprint,
    /// and (unless `requireNewest` is false) the database's newest key must be held: it is the
    /// one new secrets are sealed under. Returns that key.
    private static func checkedWritingKey(_ db: LibPQConnection, keys: DataKeyStore, requireNewest: Bool = true) throws -> DataKey {
        let registered = try db.execute("SELECT id, encode(fingerprint, 'hex') FROM data_keys ORDER BY id")
        let folder = keys.current.directory?.path ?? "memory"
        var newest: DataKey?
        for row in registered {
            guard let id = row[0].flatMap({ Int($0) }) else { continue }
            guard let held = keys.key(id) else {
                newest = nil
                continue
            }
            guard held.fingerprint.hex == row[1] else {
                throw DataKeysError(
                    "The data key \(DataKeyring.fileName(for: id)) in \(folder) is not the key \(id) the database's webhook secrets "
                        + "are encrypted with: every instance must use the same keys folder (copy the file from the instance that made it).")
            }
            newest = held
        }
        guard let newest else {
            if !requireNewest, let any = keys.current.keys.last { return any }
            let id = registered.last?[0] ?? "?"
            throw DataKeysError(
                "The database's webhook secrets are encrypted with data key \(id), which \(folder) does not hold: copy "
                    + "\(DataKeyring.fileName(for: Int(id) ?? 0)) from the keys folder of the instance that made it.")
        }
        return newest
    }

    private static func reseal(_ db: LibPQConnection, endpoint: UUID, secret: String, with key: DataKey) throws {
        let sealed = try WebhookSecrets.seal(secret, endpoint: endpoint, with: key)
        try db.execute(
            "UPDATE webhook_endpoints SET secret = NULL, secret_key_id = $2, secret_sealed = decode($3, 'hex') WHERE id = $1",
            parameters: [endpoint.uuidString.lowercased(), String(key.id), sealed.hex])
    }

    private static func inTransaction<T>(_ database: ConnectionInfo, _ body: (LibPQConnection) throws -> T) throws -> T {
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

extension Data {
    /// Lower-case hexadecimal, as PostgreSQL's `decode(..., 'hex')` reads it.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
