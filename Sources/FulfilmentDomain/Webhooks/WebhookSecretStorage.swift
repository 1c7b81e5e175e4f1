import Foundation
import Logging
import PostgresNIO

/// Webhook secrets at rest (migration 023): which data key a new secret is sealed under, the
/// start-up step that seals what is still plain, and the rotation to a new data key. The SQL is
/// `WebhookSecretQueries`'.
///
/// Lock order, the same everywhere so none waits on another in a circle: `data_keys` first, then
/// `webhook_endpoints`. A writer takes the newest key row `FOR KEY SHARE`; the start-up step and
/// the rotation lock `data_keys` whole, then the endpoints.
public enum WebhookSecretStorage {
    /// The key a new secret is sealed under, held `FOR KEY SHARE` until the transaction ends, so a
    /// rotation waits for this write and then re-seals it too.
    package static func writingKey(on connection: PostgresConnection, keys: DataKeyStore, logger: Logger) async throws -> DataKey {
        let newest = try await WebhookSecretQueries.newestKeyForWriting(on: connection, logger: logger)
        guard let newest, let key = keys.key(newest) else {
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
    package static func prepare(_ database: ConnectionInfo, keys: DataKeyStore, logger: Logger) async throws -> Int {
        let sealed = try await Migrator.offloaded {
            try WebhookSecretQueries.inTransaction(database) { db in
                try WebhookSecretQueries.lockDataKeys(db)
                try WebhookSecretQueries.registerFirst(keys.current.current, db)
                let key = try checkedWritingKey(db, keys: keys)
                let plain = try WebhookSecretQueries.plainSecrets(db)
                for (endpoint, secret) in plain {
                    try reseal(db, endpoint: endpoint, secret: secret, with: key)
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
                try WebhookSecretQueries.inTransaction(database) { db in
                    try WebhookSecretQueries.lockDataKeys(db)
                    try WebhookSecretQueries.lockEndpoints(db)
                    _ = try checkedWritingKey(db, keys: keys, requireNewest: false)
                    try WebhookSecretQueries.register(key, db)
                    let stored = try WebhookSecretQueries.allSecrets(db)
                    for row in stored {
                        let secret: String
                        if let plain = row.plain {
                            secret = plain
                        } else {
                            do {
                                secret = try WebhookSecrets.open(row.sealed, keyID: row.keyID, endpoint: row.endpoint, keys: keys)
                            } catch {
                                throw DataKeysError("Webhook endpoint \(row.endpoint): \(error) Nothing was changed.")
                            }
                        }
                        try reseal(db, endpoint: row.endpoint, secret: secret, with: key)
                    }
                    try WebhookSecretQueries.deleteKeys(except: key, db)
                    return stored.count
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
        let registered = try WebhookSecretQueries.registeredKeys(db)
        let folder = keys.current.directory?.path ?? "memory"
        var newest: DataKey?
        for row in registered {
            guard let id = row.id.flatMap({ Int($0) }) else { continue }
            guard let held = keys.key(id) else {
                newest = nil
                continue
            }
            guard held.fingerprint.hex == row.fingerprint else {
                throw DataKeysError(
                    "The data key \(DataKeyring.fileName(for: id)) in \(folder) is not the key \(id) the database's webhook secrets "
                        + "are encrypted with: every instance must use the same keys folder (copy the file from the instance that made it).")
            }
            newest = held
        }
        guard let newest else {
            if !requireNewest, let any = keys.current.keys.last { return any }
            let id = registered.last?.id ?? "?"
            throw DataKeysError(
                "The database's webhook secrets are encrypted with data key \(id), which \(folder) does not hold: copy "
                    + "\(DataKeyring.fileName(for: Int(id) ?? 0)) from the keys folder of the instance that made it.")
        }
        return newest
    }

    private static func reseal(_ db: LibPQConnection, endpoint: WebhookEndpointID, secret: String, with key: DataKey) throws {
        try WebhookSecretQueries.storeSealed(try WebhookSecrets.seal(secret, endpoint: endpoint, with: key), endpoint: endpoint, keyID: key.id, db)
    }
}
