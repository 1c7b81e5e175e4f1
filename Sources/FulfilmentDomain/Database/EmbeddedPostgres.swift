import Foundation
import Logging
import QRReceipt

/// A private PostgreSQL cluster under a data folder: created on first use, started on a
/// unix socket inside that folder (no TCP port), stopped when the service stops.
///
/// This is what `fulfilment serve` runs on when no `DATABASE_URL` is given, and what the
/// test run uses. PostgreSQL refuses to run as root, so when this process is root the
/// server commands run as the `postgres` system user, who then owns the folder.
///
/// Nobody else gets in: the folder is 0700 and the socket 0700, so other OS users cannot reach
/// the socket at all, and every connection must still give the cluster's password
/// (scram-sha-256), generated on first start and kept 0600 in the folder (`password`). A
/// cluster made by an earlier version with `--auth=trust` is upgraded in place on its next start.
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
    package static let port = 5432

    public let dataDirectory: URL
    package let binDirectory: URL
    package let logger: Logger

    package var clusterDirectory: URL { dataDirectory.appendingPathComponent("cluster") }
    package var logFile: URL { dataDirectory.appendingPathComponent("postgres.log") }
    /// The `fulfilment` role's password: the one secret that lets a connection in.
    package var passwordFile: URL { dataDirectory.appendingPathComponent("password") }
    package var hbaFile: URL { clusterDirectory.appendingPathComponent("pg_hba.conf") }

    /// Finds the server binaries (`pg_config --bindir`, then PATH) or throws `.notInstalled`.
    public init(dataDirectory: URL, logger: Logger) throws {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.logger = logger
        guard let bin = Self.findBinDirectory() else { throw Failure.notInstalled }
        self.binDirectory = bin
        if socketPath.utf8.count > 100 { throw Failure.socketPathTooLong(socketPath) }
    }

    /// How to reach the running cluster: its socket folder, as a libpq host, and the password
    /// (read from the folder, so only once ``start(durability:)`` has made it).
    public var connectionInfo: ConnectionInfo {
        var options = [
            "host": dataDirectory.path, "port": String(Self.port),
            "user": Self.user, "dbname": Self.database, "sslmode": "disable",
        ]
        options["password"] = try? storedPassword()
        return ConnectionInfo(options: options)
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

        package var serverOptions: String {
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
        let password = try makePasswordIfMissing()
        try handOverToServerUser(dataDirectory)
        if !isInitialized {
            logger.info("creating embedded PostgreSQL cluster", metadata: ["dir": "\(clusterDirectory.path)"])
            try run(
                "initdb",
                [
                    "-D", clusterDirectory.path, "-U", Self.user, "--auth-local=scram-sha-256", "--auth-host=scram-sha-256",
                    "--pwfile=\(passwordFile.path)", "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions",
                ])
        }
        var startedHere = false
        if !isRunning {
            removeStalePidFile()
            let logged = logSize
            do {
                try run(
                    "pg_ctl",
                    [
                        "-D", clusterDirectory.path, "-l", logFile.path, "-w", "-t", "60",
                        "-o",
                        "-c listen_addresses='' -k \(dataDirectory.path) -p \(Self.port) -c unix_socket_permissions=0700 -c max_connections=200 \(durability.serverOptions)",
                        "start",
                    ])
            } catch Failure.commandFailed(_, let output) {
                throw Failure.commandFailed("pg_ctl start", output: startFailure(pgCtlSaid: output, logSince: logged))
            }
            startedHere = true
        }
        if try trustsConnections() { try requirePassword(password) }
        let admin: LibPQConnection
        do {
            admin = try LibPQConnection(connectionInfo.with(database: "postgres"))
        } catch let failure as LibPQConnection.Failure where failure.message.contains("password authentication failed") {
            throw Failure.commandFailed(
                "connecting to the embedded cluster",
                output: "\(failure.message) (the password it was made with is kept in \(passwordFile.path): was that file replaced?)")
        }
        if try admin.execute("SELECT 1 FROM pg_database WHERE datname = $1", parameters: [Self.database]).isEmpty {
            try admin.execute("CREATE DATABASE \(Self.database)")
        }
        return startedHere
    }

    /// The password, made on first start: random, in a file only the folder's owner may read
    /// (`PrivateFile`: 0600 from the start, and whole or absent after a crash). Hexadecimal, so it
    /// needs no quoting in a connection string or in SQL.
    private func makePasswordIfMissing() throws -> String {
        if let password = try? storedPassword() {
            chmod(passwordFile.path, 0o600)
            return password
        }
        var generator = SystemRandomNumberGenerator()
        let password = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        do {
            try PrivateFile.createNew(at: passwordFile, bytes: Array((password + "\n").utf8))
        } catch {
            // Another command starting the same cluster made it first: theirs is the password.
            if error.code == EEXIST, let theirs = try? storedPassword() { return theirs }
            throw Failure.commandFailed("create \(error.path)", output: error.message)
        }
        return password
    }

    package func storedPassword() throws -> String {
        let text = try String(contentsOf: passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Failure.commandFailed("read \(passwordFile.path)", output: "the file is empty") }
        return text
    }

    /// True while `pg_hba.conf` lets any connection in without a password: a cluster made by
    /// an earlier version of this service (`initdb --auth=trust`).
    package func trustsConnections() throws -> Bool {
        try String(contentsOf: hbaFile, encoding: .utf8).split(separator: "\n").contains { line in
            !line.hasPrefix("#") && line.split(whereSeparator: \.isWhitespace).last == "trust"
        }
    }

    /// Upgrades a running cluster that trusts every connection: gives the role the password
    /// (while trust still lets this in), then makes every `pg_hba.conf` rule ask for it, then
    /// restarts the server so the rules and the socket's permissions apply before anyone
    /// connects. Interrupted, the next start finds `trust` still there and does it again.
    private func requirePassword(_ password: String) throws {
        logger.notice("the embedded PostgreSQL cluster let anyone in without a password: setting one (scram-sha-256)")
        do {  // the connection is closed at the end of this block, before the restart
            let connection = try LibPQConnection(connectionInfo.with(database: "postgres"))
            // The statement holds the password: never let the server's log keep a copy of it.
            try connection.execute("SET log_min_error_statement = panic; SET log_statement = 'none'")
            try connection.execute("SET password_encryption = 'scram-sha-256'")
            try connection.execute("ALTER ROLE \(Self.user) PASSWORD '\(password.replacingOccurrences(of: "'", with: "''"))'")
        }
        let rules = try String(contentsOf: hbaFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") ? String(line) : String(line.replacing(#/\btrust\s*$/#, with: "scram-sha-256"))
        }
        try rules.joined(separator: "\n").write(to: hbaFile, atomically: true, encoding: .utf8)
        chmod(hbaFile.path, 0o600)
        try handOverToServerUser(dataDirectory)
        try run("pg_ctl", ["-D", clusterDirectory.path, "-l", logFile.path, "-m", "fast", "-w", "-t", "60", "restart"])
    }

    package var socketPath: String { dataDirectory.appendingPathComponent(".s.PGSQL.\(Self.port)").path }

    /// Running means pg_ctl finds a live postmaster *and* its socket is in our folder: a
    /// postmaster.pid left by a killed server can name a PID the system has since reused.
    package var isRunning: Bool {
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

    /// The running postmaster's process id, from the first line of `postmaster.pid`.
    package var postmasterPID: pid_t? {
        let pidFile = clusterDirectory.appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
    }

    private var logSize: UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: logFile.path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// Why a start failed, on one line: pg_ctl's own complaint, then what the server wrote to its
    /// log during the attempt (its FATAL or PANIC, with the DETAIL and HINT after it). pg_ctl
    /// alone says only "could not start server; Examine the log output".
    private func startFailure(pgCtlSaid output: String, logSince offset: UInt64) -> String {
        let pgCtl = output.split(separator: "\n").filter { $0.hasPrefix("pg_ctl:") && !$0.contains("Examine the log") }
        var said: [String] = []
        for line in logLines(since: offset) {
            guard let level = ["FATAL:", "PANIC:", "DETAIL:", "HINT:"].first(where: { line.contains($0) }) else { continue }
            if level == "DETAIL:" || level == "HINT:", said.isEmpty { continue }  // what belongs to an earlier message
            said.append(level + " " + line[line.range(of: level)!.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        let server = said.isEmpty ? [] : ["\(logFile.lastPathComponent) says: " + said.joined(separator: " ")]
        let parts = pgCtl.map(String.init) + server
        return parts.isEmpty ? output.trimmingCharacters(in: .whitespacesAndNewlines) : parts.joined(separator: "; ")
    }

    /// The server log's lines from `offset` on (at most its last 64 KiB: the log is never rotated).
    private func logLines(since offset: UInt64) -> [Substring] {
        guard let file = try? FileHandle(forReadingFrom: logFile) else { return [] }
        defer { try? file.close() }
        let end = (try? file.seekToEnd()) ?? 0
        try? file.seek(toOffset: max(offset > end ? 0 : offset, end > 65_536 ? end - 65_536 : 0))
        let data = (try? file.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// True when the server's last run ended because someone asked it to stop (`pg_ctl stop`,
    /// SIGTERM, SIGINT or SIGQUIT to the postmaster), not by a crash or `kill -9`: its log then
    /// has "received … shutdown request" after the last "ready to accept connections".
    package var lastRunEndedOnRequest: Bool {
        let lines = logLines(since: 0)
        let lastRun = lines.lastIndex { $0.contains("database system is ready to accept connections") } ?? lines.startIndex
        return lines[lastRun...].contains { $0.contains("shutdown request") }
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

    private static var isRoot: Bool { getuid() == 0 }

    /// The folder is the server user's alone, whoever runs this.
    private func handOverToServerUser(_ directory: URL) throws {
        if Self.isRoot {
            try Self.execute("/bin/chown", ["-R", "postgres:postgres", directory.path])
        }
        guard chmod(directory.path, 0o700) == 0 else {
            throw Failure.commandFailed("chmod 0700 \(directory.path)", output: String(cString: strerror(errno)))
        }
    }

    /// Runs one of PostgreSQL's programs as the server user (see the type's notes on root).
    @discardableResult
    package func run(_ tool: String, _ arguments: [String]) throws -> String {
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
    package static func execute(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("fulfilment-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
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
        defer { for pointer in envp { free(pointer) } }
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

    package static func findBinDirectory() -> URL? {
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
