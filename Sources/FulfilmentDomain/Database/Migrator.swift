import Foundation
import Logging

/// Applies pending numbered migrations, each in its own transaction, recorded in
/// `schema_migrations`; then the routines that are due, together in one transaction, recorded in
/// `schema_routines`.
///
/// A routine is due when its file changed since it was last applied, or when what it defines is
/// not in the database: a numbered migration may have dropped it (a function whose return type
/// changes is dropped by a numbered migration and made again by its routine file; `DROP ...
/// CASCADE` takes triggers and views with it). Routines are applied after every numbered
/// migration, so a numbered migration can only use functions that exist at its number: one it
/// needs must not be new in a routine file alone.
///
/// Safe to run from several instances at once: the whole run holds a PostgreSQL advisory
/// lock, so the second instance waits and then finds nothing to do.
public struct Migrator: Sendable {
    /// Arbitrary but fixed: every instance of this service must use the same key.
    package static let advisoryLockKey = "7420190133"

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
        let numbered = migrations.filter { !$0.isRoutine }
        let routines = migrations.filter(\.isRoutine)
        let connection = self.connection
        return try await Self.offloaded {
            let db = try LibPQConnection(connection)
            try db.execute("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
            defer { _ = try? db.execute("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))") }
            try db.execute(
                """
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
            for migration in numbered {
                if let landed = applied[migration.version], landed.checksum != migration.checksum {
                    throw MigrationError.checksumMismatch(file: migration.name)
                }
            }
            var done: [String] = []
            for migration in numbered where applied[migration.version] == nil {
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
            if !routines.isEmpty {
                let routinesDone = try Self.apply(routines, on: db)
                if !routinesDone.isEmpty {
                    logger.info("applied routines", metadata: ["routines": "\(routinesDone.map(\.routineName).joined(separator: ", "))"])
                }
                done += routinesDone.map(\.name)
            }
            return done
        }
    }

    package static let routinesTable = """
        CREATE TABLE IF NOT EXISTS schema_routines (
            name        text PRIMARY KEY,
            checksum    text NOT NULL,
            applied_at  timestamptz NOT NULL DEFAULT now()
        );
        """

    /// The functions, views and triggers in `public`, as `kind name` (a routine's `object`).
    package static let definedObjects = """
        SELECT 'function ' || p.proname FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
        UNION SELECT 'view ' || c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('v', 'm')
        UNION SELECT 'trigger ' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
              WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal
        """

    /// Applies the routines that are due in one transaction and returns them; a routine whose
    /// file is gone loses its record (dropping what it made is a numbered migration's work).
    ///
    /// Bodies are checked as they are made (`check_function_bodies` stays on), so a typo in a
    /// PL/pgSQL body stops the start instead of the first call. A routine may need another applied
    /// after it (a SQL function or a view calling a new function, a trigger its function), so they
    /// are applied in passes: one that fails is tried again after the rest, each in a savepoint;
    /// one that fails in a pass where nothing succeeded stops the run, rolled back whole, naming
    /// its file.
    private static func apply(_ routines: [Migration], on db: LibPQConnection) throws -> [Migration] {
        try db.execute(routinesTable)
        var recorded: [String: String] = [:]
        for row in try db.execute("SELECT name, checksum FROM schema_routines") { recorded[row[0]!] = row[1]! }
        let present = Set(try db.execute(definedObjects).compactMap { $0[0] })
        let due = routines.filter { recorded[$0.routineName] != $0.checksum || !present.contains($0.object) }
        let gone = Set(recorded.keys).subtracting(routines.map(\.routineName)).sorted()
        guard !due.isEmpty || !gone.isEmpty else { return [] }
        var current: Migration?
        do {
            try db.execute("BEGIN")
            var waiting = due
            while !waiting.isEmpty {
                var failed: [(Migration, LibPQConnection.Failure)] = []
                for routine in waiting {
                    do {
                        try db.execute("SAVEPOINT routine")
                        try db.execute(routine.sql)
                        try db.execute("RELEASE SAVEPOINT routine")
                    } catch let failure as LibPQConnection.Failure {
                        try db.execute("ROLLBACK TO SAVEPOINT routine")
                        failed.append((routine, failure))
                    }
                }
                if let (routine, failure) = failed.first, failed.count == waiting.count {
                    current = routine
                    throw failure
                }
                waiting = failed.map(\.0)
            }
            for routine in due {
                current = routine
                try db.execute(
                    """
                    INSERT INTO schema_routines (name, checksum) VALUES ($1, $2)
                    ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()
                    """,
                    parameters: [routine.routineName, routine.checksum])
            }
            current = nil
            for name in gone {
                try db.execute("DELETE FROM schema_routines WHERE name = $1", parameters: [name])
            }
            try db.execute("COMMIT")
        } catch let failure as LibPQConnection.Failure {
            _ = try? db.execute("ROLLBACK")
            throw MigrationError.failed(file: current?.name ?? "routines", message: failure.message)
        }
        return due
    }

    /// The names of the migrations not applied yet (all of them on an empty database), then the
    /// routines whose file is not applied as it stands.
    public func pending() async throws -> [String] {
        let migrations = self.migrations
        let connection = self.connection
        return try await Self.offloaded {
            let db = try LibPQConnection(connection)
            let exists = try db.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")[0][0] == "t"
            guard exists else { return migrations.map(\.name) }
            let applied = Set(try db.execute("SELECT version FROM schema_migrations").compactMap { $0[0].flatMap(Int.init) })
            let numbered = migrations.filter { !$0.isRoutine && !applied.contains($0.version) }
            let routines = migrations.filter(\.isRoutine)
            guard numbered.isEmpty, !routines.isEmpty,
                try db.execute("SELECT to_regclass('schema_routines') IS NOT NULL")[0][0] == "t"
            else { return (numbered + routines).map(\.name) }
            var recorded: [String: String] = [:]
            for row in try db.execute("SELECT name, checksum FROM schema_routines") { recorded[row[0]!] = row[1]! }
            return routines.filter { recorded[$0.routineName] != $0.checksum }.map(\.name)
        }
    }

    /// libpq blocks: each call runs on a thread of its own (``BlockingCall``), never on the
    /// caller's executor.
    package static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingCall.run(work)
    }
}
