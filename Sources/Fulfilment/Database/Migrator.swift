import Crypto
import Foundation
import Logging

/// One numbered SQL file from `sql/`: `NNN_name.sql`.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    /// SHA-256 of the file's bytes, hex. A landed migration must never change.
    public var checksum: String {
        SHA256.hash(data: Data(sql.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads every `NNN_name.sql` in `directory`, sorted by number.
    /// Two files with the same number are an error: the order would be ambiguous.
    public static func load(from directory: URL) throws -> [Migration] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var migrations: [Migration] = []
        for file in files where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]) else {
                throw MigrationError.badFileName(file)
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem), sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (a, b) in zip(migrations, migrations.dropFirst()) where a.version == b.version {
            throw MigrationError.duplicateVersion(a.name, b.name)
        }
        return migrations
    }

    /// The `sql/` folder of this project: `$FULFILMENT_SQL_DIR`, else `./sql`, else the one
    /// beside the sources this binary was built from.
    public static var defaultDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["FULFILMENT_SQL_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        let local = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("sql")
        if FileManager.default.fileExists(atPath: local.appendingPathComponent("001_init.sql").path) {
            return local
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sql")
    }
}

public enum MigrationError: Error, CustomStringConvertible, Equatable {
    case badFileName(String)
    case duplicateVersion(String, String)
    case checksumMismatch(file: String)
    case failed(file: String, message: String)

    public var description: String {
        switch self {
        case .badFileName(let file): "migration file \(file) must be named NNN_name.sql"
        case .duplicateVersion(let a, let b): "migrations \(a).sql and \(b).sql share a number"
        case .checksumMismatch(let file):
            "migration \(file).sql was changed after it was applied; landed migrations must never be edited (add a new one instead)"
        case .failed(let file, let message): "migration \(file).sql failed: \(message)"
        }
    }
}

/// Applies pending migrations, each in its own transaction, recorded in `schema_migrations`.
///
/// Safe to run from several instances at once: the whole run holds a PostgreSQL advisory
/// lock, so the second instance waits and then finds nothing to do.
public struct Migrator: Sendable {
    /// Arbitrary but fixed: every instance of this service must use the same key.
    static let advisoryLockKey = "7420190133"

    public var connection: ConnectionInfo
    public var migrations: [Migration]

    public init(connection: ConnectionInfo, migrations: [Migration]) {
        self.connection = connection
        self.migrations = migrations
    }

    /// Applies what is pending and returns the names applied now.
    /// Throws `MigrationError.checksumMismatch` before applying anything if a landed file changed.
    @discardableResult
    public func migrate(logger: Logger) async throws -> [String] {
        let migrations = self.migrations
        let connection = self.connection
        return try await Self.offloaded {
            let db = try LibPQConnection(connection)
            try db.execute("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
            defer { _ = try? db.execute("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))") }
            try db.execute("""
                SET client_min_messages = warning;
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    integer PRIMARY KEY,
                    name       text NOT NULL,
                    checksum   text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                );
                """)
            var applied: [Int: (name: String, checksum: String)] = [:]
            for row in try db.execute("SELECT version, name, checksum FROM schema_migrations") {
                applied[Int(row[0]!)!] = (row[1]!, row[2]!)
            }
            for migration in migrations {
                if let landed = applied[migration.version], landed.checksum != migration.checksum {
                    throw MigrationError.checksumMismatch(file: migration.name)
                }
            }
            var done: [String] = []
            for migration in migrations where applied[migration.version] == nil {
                do {
                    try db.execute("BEGIN")
                    try db.execute(migration.sql)
                    try db.execute(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                        parameters: [String(migration.version), migration.name, migration.checksum])
                    try db.execute("COMMIT")
                } catch let failure as LibPQConnection.Failure {
                    _ = try? db.execute("ROLLBACK")
                    throw MigrationError.failed(file: migration.name, message: failure.message)
                }
                logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
                done.append(migration.name)
            }
            return done
        }
    }

    /// The names of the migrations not applied yet (all of them on an empty database).
    public func pending() async throws -> [String] {
        let migrations = self.migrations
        let connection = self.connection
        return try await Self.offloaded {
            let db = try LibPQConnection(connection)
            let exists = try db.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")[0][0] == "t"
            guard exists else { return migrations.map(\.name) }
            let applied = Set(try db.execute("SELECT version FROM schema_migrations").compactMap { $0[0].flatMap(Int.init) })
            return migrations.filter { !applied.contains($0.version) }.map(\.name)
        }
    }

    /// libpq blocks: each call runs on a thread of its own (``BlockingCall``), never on the
    /// caller's executor.
    static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingCall.run(work)
    }
}
