import Foundation
import Logging

/// A private PostgreSQL cluster under a data folder: created on first use, started on a
/// unix socket inside that folder (no TCP port), stopped when the service stops.
///
/// This is what `fulfilment serve` runs on when no `DATABASE_URL` is given, and what the
/// test run uses. PostgreSQL refuses to run as root, so when this process is root the
/// server commands run as the `postgres` system user, who then owns the folder.
public struct EmbeddedPostgres: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case commandFailed(String, output: String)
        case socketPathTooLong(String)

        public var description: String {
            switch self {
            case .notInstalled:
                "PostgreSQL is not installed: install it (apt-get install postgresql) or set DATABASE_URL to an existing database."
            case .commandFailed(let command, let output): "\(command) failed: \(output)"
            case .socketPathTooLong(let path):
                "the data folder path is too long for a unix socket (\(path)); choose a shorter --data-dir"
            }
        }
    }

    public static let user = "fulfilment"
    public static let database = "fulfilment"
    static let port = 5432

    public let dataDirectory: URL
    let binDirectory: URL
    let logger: Logger

    var clusterDirectory: URL { dataDirectory.appendingPathComponent("cluster") }
    var logFile: URL { dataDirectory.appendingPathComponent("postgres.log") }

    /// Finds the server binaries (`pg_config --bindir`, then PATH) or throws `.notInstalled`.
    public init(dataDirectory: URL, logger: Logger) throws {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.logger = logger
        guard let bin = Self.findBinDirectory() else { throw Failure.notInstalled }
        self.binDirectory = bin
        if socketPath.utf8.count > 100 { throw Failure.socketPathTooLong(socketPath) }
    }

    /// How to reach the running cluster: its socket folder, as a libpq host.
    public var connectionInfo: ConnectionInfo {
        ConnectionInfo(options: [
            "host": dataDirectory.path, "port": String(Self.port),
            "user": Self.user, "dbname": Self.database, "sslmode": "disable",
        ])
    }

    public var isInitialized: Bool {
        FileManager.default.fileExists(atPath: clusterDirectory.appendingPathComponent("PG_VERSION").path)
    }

    /// How a started cluster treats a commit.
    public enum Durability: Sendable {
        /// PostgreSQL's own defaults (`fsync`, `full_page_writes`, `synchronous_commit` on): a
        /// committed order survives a power cut. What `fulfilment serve` always uses.
        case durable
        /// Commits may be lost and the cluster corrupted by a crash of the machine. Only for a
        /// throwaway test cluster, asked for explicitly (`fulfilment postgres start --unsafe-fast`).
        /// It takes 1,500 connections: the tests run at once, each with a service of its own whose
        /// pool, event listener and webhook dispatcher all hold connections.
        case unsafeFast

        var serverOptions: String {
            switch self {
            case .durable: "-c fsync=on -c full_page_writes=on -c synchronous_commit=on"
            case .unsafeFast: "-c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=1500"
            }
        }
    }

    /// Creates the cluster if needed, starts it unless it already runs, and makes sure the
    /// application database exists. Returns true when this call started the server (so the
    /// caller should stop it). A cluster already running keeps the settings it was started with.
    @discardableResult
    public func start(durability: Durability = .durable) throws -> Bool {
        let fm = FileManager.default
        try fm.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try handOverToServerUser(dataDirectory)
        if !isInitialized {
            logger.info("creating embedded PostgreSQL cluster", metadata: ["dir": "\(clusterDirectory.path)"])
            try run("initdb", [
                "-D", clusterDirectory.path, "-U", Self.user, "--auth=trust", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-instructions",
            ])
        }
        var startedHere = false
        if !isRunning {
            removeStalePidFile()
            try run("pg_ctl", [
                "-D", clusterDirectory.path, "-l", logFile.path, "-w", "-t", "60",
                "-o", "-c listen_addresses='' -k \(dataDirectory.path) -p \(Self.port) -c max_connections=200 \(durability.serverOptions)",
                "start",
            ])
            startedHere = true
        }
        let exists = try run("psql", psqlArguments(database: "postgres") + [
            "-tAc", "SELECT 1 FROM pg_database WHERE datname = '\(Self.database)'",
        ])
        if exists.trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            try run("createdb", ["-h", dataDirectory.path, "-p", String(Self.port), "-U", Self.user, Self.database])
        }
        return startedHere
    }

    var socketPath: String { dataDirectory.appendingPathComponent(".s.PGSQL.\(Self.port)").path }

    /// Running means pg_ctl finds a live postmaster *and* its socket is in our folder: a
    /// postmaster.pid left by a killed server can name a PID the system has since reused.
    var isRunning: Bool {
        (try? run("pg_ctl", ["-D", clusterDirectory.path, "status"])) != nil
            && FileManager.default.fileExists(atPath: socketPath)
    }

    /// A server of this cluster always makes its socket here, so with no socket the pid file
    /// is stale (the server was killed) and would stop a new one from starting.
    private func removeStalePidFile() {
        let pidFile = clusterDirectory.appendingPathComponent("postmaster.pid")
        guard FileManager.default.fileExists(atPath: pidFile.path), !FileManager.default.fileExists(atPath: socketPath) else {
            return
        }
        logger.warning("removing a stale postmaster.pid left by a server that is gone")
        try? FileManager.default.removeItem(at: pidFile)
    }

    /// Stops the server (fast shutdown: open sessions are ended, data is kept).
    public func stop() {
        do {
            try run("pg_ctl", ["-D", clusterDirectory.path, "-m", "fast", "-w", "stop"])
            logger.info("stopped embedded PostgreSQL")
        } catch {
            logger.warning("could not stop embedded PostgreSQL", metadata: ["error": "\(error)"])
        }
    }

    private func psqlArguments(database: String) -> [String] {
        ["-X", "-q", "-h", dataDirectory.path, "-p", String(Self.port), "-U", Self.user, "-d", database]
    }

    private static var isRoot: Bool { getuid() == 0 }

    private func handOverToServerUser(_ directory: URL) throws {
        guard Self.isRoot else { return }
        try Self.execute("/bin/chown", ["-R", "postgres:postgres", directory.path])
        try Self.execute("/bin/chmod", ["0700", directory.path])
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = binDirectory.appendingPathComponent(tool).path
        if Self.isRoot {
            return try Self.execute("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        }
        return try Self.execute(path, arguments)
    }

    /// Runs a command to completion and returns what it printed (stdout and stderr).
    ///
    /// Uses posix_spawn and waitpid rather than Foundation's `Process`, whose
    /// `waitUntilExit` can miss the exit when called from a Swift concurrency thread. Output
    /// goes to a file, not a pipe: a server started by pg_ctl could hold a pipe open forever.
    @discardableResult
    static func execute(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("fulfilment-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        var environmentList: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if !extra.keys.contains(where: { text.hasPrefix($0 + "=") }) { environmentList.append(text) }
            cursor += 1
        }
        environmentList += extra.map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = environmentList.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure.commandFailed(executable, output: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitedCleanly = (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
        guard exitedCleanly else {
            let name = URL(fileURLWithPath: arguments.first { $0.hasPrefix("/") && $0.contains("bin/") } ?? executable).lastPathComponent
            throw Failure.commandFailed(name, output: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text
    }

    static func findBinDirectory() -> URL? {
        let fm = FileManager.default
        for candidate in ["/usr/bin/pg_config", "/usr/local/bin/pg_config"] where fm.isExecutableFile(atPath: candidate) {
            if let dir = try? execute(candidate, ["--bindir"]).trimmingCharacters(in: .whitespacesAndNewlines),
                fm.isExecutableFile(atPath: dir + "/initdb")
            {
                return URL(fileURLWithPath: dir)
            }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where fm.isExecutableFile(atPath: "\(dir)/initdb") {
            return URL(fileURLWithPath: String(dir))
        }
        // Debian keeps the server binaries outside PATH.
        if let versions = try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            for version in versions.sorted().reversed() where fm.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb") {
                return URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
            }
        }
        return nil
    }
}
