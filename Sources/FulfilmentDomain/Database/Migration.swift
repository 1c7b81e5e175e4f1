import Crypto
import Foundation

/// One SQL file the ``Migrator`` applies: a numbered migration or a routine.
///
/// - A numbered migration, `sql/NNN_name.sql`, changes tables and data. It is applied once, in
///   number order, and never edited after it landed (its checksum is recorded and compared).
/// - A routine, `sql/routines/name.sql` (a function), `name.view.sql` or `name.trigger.sql`,
///   holds the one live definition of that function, view or trigger. It is applied after every
///   numbered migration, and again whenever its file changes, as Flyway's repeatable migrations
///   are: a reader opens `sql/routines/place_order.sql` and sees the body that runs.
public struct Migration: Sendable, Equatable {
    /// What a file holds; routines are applied functions first, then views, then triggers (a view
    /// or a trigger needs its functions to exist).
    public enum Kind: Int, Sendable, Comparable {
        case numbered, function, view, trigger

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// A numbered migration's number. A routine's is the newest numbered migration's: routines are
    /// written against the schema as it is after every migration, so a list cut at an older
    /// number (`version <= 21`, to build yesterday's schema) leaves them out.
    public var version: Int
    /// `NNN_name` for a numbered migration, `routines/name[.view|.trigger]` for a routine: the
    /// file's path under `sql/`, less `.sql`.
    public var name: String
    public var sql: String
    public var kind: Kind = .numbered

    public var isRoutine: Bool { kind != .numbered }

    /// A routine's name as `schema_routines` records it (the name without `routines/`).
    package var routineName: String { String(name.dropFirst(Self.routinesFolder.count + 1)) }

    /// What a routine defines, as `kind name` (`function place_order`, `trigger sessions_ended`).
    package var object: String {
        let kind =
            switch kind {
            case .numbered, .function: "function"
            case .view: "view"
            case .trigger: "trigger"
            }
        return "\(kind) \(routineName.prefix { $0 != "." })"
    }

    /// SHA-256 of the file's bytes, hex. A landed migration must never change; a routine is
    /// applied again when it does.
    public var checksum: String {
        SHA256.hash(data: Data(sql.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    package static let routinesFolder = "routines"

    /// Reads every `NNN_name.sql` in `directory`, sorted by number, then every routine in its
    /// `routines/` folder (if it has one), functions, views, triggers, each kind by name.
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
        let newest = migrations.last?.version ?? 0
        return migrations + (try loadRoutines(from: directory.appendingPathComponent(routinesFolder), version: newest))
    }

    private static let routineKinds: [String: Kind] = ["": .function, ".view": .view, ".trigger": .trigger]

    /// `name.sql`, `name.view.sql`, `name.trigger.sql`; a name is what PostgreSQL calls the thing
    /// (lower case, digits, underscores), so the file of `place_order` is `place_order.sql`.
    private static func loadRoutines(from folder: URL, version: Int) throws -> [Migration] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
        var routines: [Migration] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            let name = stem.prefix { $0 != "." }
            guard let kind = routineKinds[String(stem.dropFirst(name.count))], !name.isEmpty,
                name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLowercase || $0.isNumber)) })
            else {
                throw MigrationError.badFileName("\(routinesFolder)/\(file)")
            }
            let sql = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            routines.append(Migration(version: version, name: "\(routinesFolder)/\(stem)", sql: sql, kind: kind))
        }
        return routines.sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
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
