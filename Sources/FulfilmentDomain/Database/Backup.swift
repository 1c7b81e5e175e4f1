import Foundation

/// `fulfilment backup` and `fulfilment restore`: PostgreSQL's own consistent dump
/// (`pg_dump --format=custom`, one snapshot however busy the shop is) and restore, for the
/// embedded cluster and an external database alike.
public enum Backup {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case notEmpty(database: String, relations: Int)
        case missingFile(String)

        public var description: String {
            switch self {
            case .notEmpty(let database, let relations):
                "the database '\(database)' is not empty (\(relations) tables and other relations): restore only into an empty data folder or a new database"
            case .missingFile(let path): "there is no backup at \(path)"
            }
        }
    }

    /// Writes a consistent archive of `database` to `file`, never a half-written one: it is
    /// dumped beside it under a temporary name, flushed to disk, then renamed into place, so
    /// `file` is either the previous backup or the complete new one. Returns its size in bytes.
    ///
    /// The file is its owner's alone (mode 0600) from the moment it exists, whatever the umask:
    /// it holds every account's password hash and the shop's data.
    @discardableResult
    public static func dump(_ database: ConnectionInfo, to file: URL) throws -> Int {
        let target = file.standardizedFileURL
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
        defer { try? FileManager.default.removeItem(at: partial) }
        try createPrivate(partial)
        try run("pg_dump", ["--format=custom", "--file=\(partial.path)", "--dbname=\(conninfo(database))"], database)
        try flush(partial)
        guard rename(partial.path, target.path) == 0 else {
            throw EmbeddedPostgres.Failure.commandFailed("rename", output: String(cString: strerror(errno)))
        }
        try flush(target.deletingLastPathComponent())
        let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int
        return size ?? 0
    }

    /// Restores `file` into `database`, which must be empty: a restore never mixes two shops'
    /// data. One transaction: a failed restore leaves the database empty again.
    public static func restore(_ file: URL, into database: ConnectionInfo) throws {
        guard FileManager.default.fileExists(atPath: file.path) else { throw Failure.missingFile(file.path) }
        let relations = try LibPQConnection(database).execute(
            """
            SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
              AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
            """)
        let count = Int(relations.first?.first.flatMap { $0 } ?? "0") ?? 0
        guard count == 0 else { throw Failure.notEmpty(database: database.database, relations: count) }
        try run(
            "pg_restore",
            ["--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges", "--dbname=\(conninfo(database))", file.path],
            database)
    }

    /// The connection as a libpq key=value string, without the password (that goes in the
    /// environment, where other users' `ps` cannot read it).
    package static func conninfo(_ info: ConnectionInfo) -> String {
        info.options.filter { $0.key != "password" && !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { key, value in
            "\(key)='\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'"))'"
        }.joined(separator: " ")
    }

    private static func run(_ tool: String, _ arguments: [String], _ database: ConnectionInfo) throws {
        guard let bin = EmbeddedPostgres.findBinDirectory() else { throw EmbeddedPostgres.Failure.notInstalled }
        try EmbeddedPostgres.execute(
            bin.appendingPathComponent(tool).path, arguments, environment: database.password.map { ["PGPASSWORD": $0] } ?? [:])
    }

    /// Creates `file` empty with mode 0600 (set exactly, so the umask cannot widen or narrow it)
    /// for pg_dump to write into: it opens an existing file without changing its mode. A file or
    /// link already at that name is refused rather than followed.
    private static func createPrivate(_ file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw EmbeddedPostgres.Failure.commandFailed("open", output: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw EmbeddedPostgres.Failure.commandFailed("fchmod", output: String(cString: strerror(errno)))
        }
    }

    /// fsync a file or folder, so a rename after it cannot expose an empty file after a power cut.
    private static func flush(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw EmbeddedPostgres.Failure.commandFailed("open", output: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw EmbeddedPostgres.Failure.commandFailed("fsync", output: String(cString: strerror(errno)))
        }
    }
}
