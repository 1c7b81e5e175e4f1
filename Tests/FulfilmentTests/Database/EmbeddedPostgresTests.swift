import Foundation
import Logging
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 24, items 6 and 11: the embedded cluster lets in only this service (a password, a private
/// folder and socket), a cluster made by an older version is upgraded in place, and a first
/// `serve --demo` (what `make run` does) logs no warning.
@Suite("The embedded PostgreSQL asks for its password and is the service's alone")
struct EmbeddedPostgresTests {
    @Test("a new cluster: folder and socket 0700, password file 0600, no rule trusts; no or a wrong password is refused")
    func passwordRequired() async throws {
        try await withEmbeddedCluster(durability: .unsafeFast) { embedded in
            #expect(try mode(embedded.dataDirectory.path) == 0o700)
            #expect(try mode(embedded.passwordFile.path) == 0o600)
            #expect(try mode(embedded.socketPath) == 0o700)
            #expect(try !embedded.trustsConnections())
            try await expectOnlyThePasswordLetsIn(embedded.connectionInfo)
            try await expectTCPAsksForThePassword(embedded)

            // A password file that no longer matches stops the start with a message naming it.
            let password = try embedded.storedPassword()
            try String(password.reversed()).write(to: embedded.passwordFile, atomically: false, encoding: .utf8)
            do {
                try embedded.start(durability: .unsafeFast)
                Issue.record("the cluster started with a password it was not made with")
            } catch {
                #expect("\(error)".contains("password authentication failed"), "\(error)")
                #expect("\(error)".contains(embedded.passwordFile.path), "\(error)")
            }
            try password.write(to: embedded.passwordFile, atomically: false, encoding: .utf8)
            #expect(try await sql("SELECT 1", on: embedded.connectionInfo) == [["1"]])
        }
    }

    @Test(
        "psql as another OS user (nobody) is refused, even with the folder opened to it and the right password",
        .enabled(if: canSwitchToNobody, "this machine does not let the tests run a command as `nobody` (runuser needs root)"))
    func otherUserRefused() async throws {
        try await withEmbeddedCluster(durability: .unsafeFast) { embedded in
            let password = try embedded.storedPassword()
            let asNobody = try await psqlAsNobody(embedded, password: password)
            #expect(asNobody.status != 0, "\(asNobody.output)\(asNobody.errors)")
            #expect(asNobody.errors.contains("Permission denied"), "\(asNobody.errors)")
            // An operator who loosens the folder still has the socket's own 0700 in the way.
            chmod(embedded.dataDirectory.path, 0o755)
            let opened = try await psqlAsNobody(embedded, password: password)
            #expect(opened.status != 0, "\(opened.output)\(opened.errors)")
            #expect(opened.errors.contains("Permission denied"), "\(opened.errors)")
            #expect(!opened.output.contains("fulfilment"))
        }
    }

    @Test(
        "run by a user other than root, `postgres start` makes the folder 0700 too, prints the password, and keeps other users out",
        .enabled(if: canSwitchToNobody, "this machine does not let the tests run commands as other users (runuser needs root)"))
    func nonRootOwner() async throws {
        try await withScratchFolder { folder in
            try EmbeddedPostgres.execute("/bin/chown", ["postgres", folder.path])
            let data = folder.appendingPathComponent("pg")
            let asPostgres = ["-u", "postgres", "--", ServiceProcess.binary, "postgres"]
            let started = try await Subprocess.run("/usr/sbin/runuser", asPostgres + ["start", "--unsafe-fast", "--data-dir", data.path])
            defer { _ = try? Subprocess.run("/usr/sbin/runuser", asPostgres + ["stop", "--data-dir", data.path]) as Subprocess.Outcome }
            try #require(started.status == 0, "\(started.output)\(started.errors)")
            let embedded = try EmbeddedPostgres(dataDirectory: data, logger: Logger(label: "test"))
            #expect(try mode(data.path) == 0o700)
            #expect(try mode(embedded.passwordFile.path) == 0o600)
            #expect(try mode(embedded.socketPath) == 0o700)
            let printed = try ConnectionInfo.parse(started.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(printed.password == (try embedded.storedPassword()))
            #expect(try await sql("SELECT current_user", on: printed) == [[EmbeddedPostgres.user]])
            #expect(!started.errors.contains(try embedded.storedPassword()))
            let asNobody = try await psqlAsNobody(embedded, password: try embedded.storedPassword())
            #expect(asNobody.status != 0 && asNobody.errors.contains("Permission denied"), "\(asNobody.output)\(asNobody.errors)")
        }
    }

    @Test("a cluster an older version made with --auth=trust is upgraded in place on the next start: password, rules, folder, data kept")
    func trustClusterUpgraded() async throws {
        try await withScratchFolder { folder in
            let embedded = try EmbeddedPostgres(dataDirectory: folder.appendingPathComponent("pg"), logger: Logger(label: "test"))
            try makeOldTrustCluster(embedded)
            #expect(try embedded.trustsConnections())
            #expect(!FileManager.default.fileExists(atPath: embedded.passwordFile.path))

            #expect(try embedded.start(durability: .unsafeFast))
            defer { embedded.stop() }
            #expect(try !embedded.trustsConnections())
            #expect(try mode(embedded.dataDirectory.path) == 0o700)
            #expect(try mode(embedded.passwordFile.path) == 0o600)
            #expect(try mode(embedded.socketPath) == 0o700)
            try await expectOnlyThePasswordLetsIn(embedded.connectionInfo)
            let kept = try await sql("SELECT note FROM kept", on: embedded.connectionInfo)
            #expect(kept == [["made before the upgrade"]])
            // The password never reached the server's log.
            let serverLog = try String(contentsOf: embedded.logFile, encoding: .utf8)
            #expect(!serverLog.contains(try embedded.storedPassword()))
            try await expectTCPAsksForThePassword(embedded)  // the `host` rules were rewritten too

            // The next start finds nothing to upgrade and the same password still works.
            #expect(try embedded.start(durability: .unsafeFast))
            #expect(try await sql("SELECT note FROM kept", on: embedded.connectionInfo) == [["made before the upgrade"]])
        }
    }

    @Test("a cluster an older version left running with --auth=trust is upgraded too")
    func runningTrustClusterUpgraded() async throws {
        try await withScratchFolder { folder in
            let embedded = try EmbeddedPostgres(dataDirectory: folder.appendingPathComponent("pg"), logger: Logger(label: "test"))
            try makeOldTrustCluster(embedded, leaveRunning: true)
            defer { embedded.stop() }
            #expect(try !embedded.start(durability: .unsafeFast))  // it was running already
            #expect(try !embedded.trustsConnections())
            try await expectOnlyThePasswordLetsIn(embedded.connectionInfo)
            #expect(try await sql("SELECT note FROM kept", on: embedded.connectionInfo) == [["made before the upgrade"]])
        }
    }

    @Test("the first `serve --demo` on a fresh data folder (what `make run` does) logs no warning, and never the password")
    func firstDemoStartIsQuiet() async throws {
        try await withScratchFolder { folder in
            let keys = folder.appendingPathComponent("keys")
            _ = try PickupKeys.generate(in: keys)
            let data = folder.appendingPathComponent("pg")
            let port = try ServiceProcess.freePort()
            let log = folder.appendingPathComponent("serve.log")
            let pid = try ServiceProcess.spawn(
                ServiceProcess.binary,
                ["serve", "--demo", "--data-dir", data.path, "--keys-dir", keys.path, "--port", String(port)],
                environment: ["FULFILMENT_BCRYPT_COST": "4", "LOG_LEVEL": "info"], output: log)
            let embedded = try EmbeddedPostgres(dataDirectory: data, logger: Logger(label: "test"))
            defer { if embedded.isRunning { embedded.stop() } }  // the service stops it itself, unless the test failed first
            var exit: Int32 = 0
            defer { if waitpid(pid, &exit, WNOHANG) == 0 { kill(pid, SIGKILL) } }
            let app = TestApp(transport: .fresh(port: port), database: embedded.connectionInfo, keyring: ServiceProcess.placeholderKeyring)
            let text = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
            var ready = false
            for _ in 0..<1200 where !ready {  // up to a minute: initdb, migrations, the seed
                ready = (try? await app.request(.get, "/readyz").status) == .ok
                try #require(ready || waitpid(pid, &exit, WNOHANG) == 0, "fulfilment serve --demo exited:\n\(text())")
                if !ready { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(ready, "fulfilment serve --demo was not ready within a minute:\n\(text())")
            // What the demo seed and the background services do once, done: the demo orders exist.
            #expect(text().contains("Loaded the demo store"), "\(text())")
            // The kerbside (issue 27): a substitute waiting for its customer's answer, a customer at the bay.
            let database = embedded.connectionInfo
            #expect(try await sql("SELECT count(*) FROM order_lines WHERE substitution_status = 'proposed'", on: database) == [["1"]])
            // (The month of past orders came to the desk too, and were handed over: the one waiting now is at the bay.)
            #expect(
                try await sql(
                    "SELECT arrival_bay FROM orders WHERE arrived_at IS NOT NULL AND status IN ('packaged', 'delivering')", on: database) == [
                        [DemoKerbside.bay]
                    ])
            // A few rounds of the background services too, seen to have run rather than slept for:
            // the event bus has numbered everything the seed wrote (its first round), and the
            // database probe has sent its statement twice since.
            try await waitUntil("the event bus numbered the seed's events", seconds: 60) {
                try await sql("SELECT count(*) > 0 AND count(*) FILTER (WHERE sequence IS NULL) = 0 FROM events", on: database) == [["t"]]
            }
            var since = try await sql("SELECT clock_timestamp()::text", on: database)[0][0] ?? ""
            for round in 1...2 {
                try await waitUntil("the database probe's round \(round) since", seconds: 60) {
                    let probed = try await sql(
                        "SELECT max(query_start)::text FROM pg_stat_activity WHERE query = 'SELECT pg_is_in_recovery()' AND query_start > $1::timestamptz",
                        [since], on: database)
                    guard let started = probed[0][0] else { return false }
                    since = started
                    return true
                }
            }
            // Read before the shutdown, which may log complaints of its own (cancelled channels).
            let running = text().split(separator: "\n")
            kill(pid, SIGTERM)
            for _ in 0..<600 where waitpid(pid, &exit, WNOHANG) == 0 { try await Task.sleep(for: .milliseconds(50)) }
            let complaints = running.filter {
                $0.contains(" warning ") || $0.contains(" error ") || $0.contains(" critical ") || $0.contains("PostgresClient.run()")
            }
            #expect(complaints.isEmpty, "\(complaints)")
            let password = try embedded.storedPassword()
            #expect(!text().contains(password))
            #expect(!(try String(contentsOf: embedded.logFile, encoding: .utf8)).contains(password))
        }
    }
}

/// Without a password, or with a wrong one, the cluster refuses `info`; its own password gets in.
private func expectOnlyThePasswordLetsIn(_ connection: ConnectionInfo) async throws {
    var info = connection
    #expect(info.password != nil)
    #expect(try await sql("SELECT current_user", on: info) == [[EmbeddedPostgres.user]])
    // No password file or environment variable may help the refused attempts along.
    info.options["passfile"] = "/nonexistent"
    for password in [nil, "wrong", String(info.password!.reversed())] {
        var attempt = info
        attempt.options["password"] = password
        do {
            _ = try await sql("SELECT 1", on: attempt)
            Issue.record("a connection with password \(password ?? "(none)") got in")
        } catch {
            let message = "\(error)"
            #expect(message.contains("password authentication failed") || message.contains("no password supplied"), "\(message)")
        }
    }
}

/// The service never opens a TCP port on the embedded cluster, but should someone start it with
/// one, the `host` rules ask for the password as the socket's do. Leaves the cluster stopped.
private func expectTCPAsksForThePassword(_ embedded: EmbeddedPostgres) async throws {
    embedded.stop()
    let port = try ServiceProcess.freePort()
    try embedded.run(
        "pg_ctl",
        [
            "-D", embedded.clusterDirectory.path, "-l", embedded.logFile.path, "-w", "-t", "60",
            "-o", "-c listen_addresses=127.0.0.1 -p \(port) -k \(embedded.dataDirectory.path) -c fsync=off", "start",
        ])
    defer { _ = try? embedded.run("pg_ctl", ["-D", embedded.clusterDirectory.path, "-m", "fast", "-w", "stop"]) }
    var overTCP = embedded.connectionInfo
    overTCP.options["host"] = "127.0.0.1"
    overTCP.options["port"] = String(port)
    #expect(overTCP.unixSocketPath == nil)
    try await expectOnlyThePasswordLetsIn(overTCP)
}

/// psql as `nobody`, with the right password, against the cluster's socket.
private func psqlAsNobody(_ embedded: EmbeddedPostgres, password: String) async throws -> Subprocess.Outcome {
    let psql = embedded.binDirectory.appendingPathComponent("psql").path
    return try await Subprocess.run(
        "/usr/sbin/runuser",
        [
            "-u", "nobody", "--", psql, "-X", "-h", embedded.dataDirectory.path, "-p", "5432", "-U", EmbeddedPostgres.user,
            "-d", EmbeddedPostgres.database, "-tAc", "SELECT current_user",
        ],
        environment: ["PGPASSWORD": password])
}

/// Whether this process may run a command as `nobody` (it must be root, with runuser at hand).
private let canSwitchToNobody: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return false }
    return (try? Subprocess.run("/usr/sbin/runuser", ["-u", "nobody", "--", "/bin/true"]).status) == 0
}()

/// A cluster exactly as the version before issue 24 made it: `initdb --auth=trust`, no password
/// file, the folder only chmodded when root; the application database holding a row.
private func makeOldTrustCluster(_ embedded: EmbeddedPostgres, leaveRunning: Bool = false) throws {
    let folder = embedded.dataDirectory.path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    chmod(folder, 0o755)
    if getuid() == 0 { try EmbeddedPostgres.execute("/bin/chown", ["-R", "postgres:postgres", folder]) }
    try embedded.run(
        "initdb",
        [
            "-D", embedded.clusterDirectory.path, "-U", EmbeddedPostgres.user, "--auth=trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-instructions",
        ])
    try embedded.run(
        "pg_ctl",
        [
            "-D", embedded.clusterDirectory.path, "-l", embedded.logFile.path, "-w", "-t", "60",
            "-o", "-c listen_addresses='' -k \(folder) -p 5432 -c fsync=off", "start",
        ])
    let psql = ["-X", "-q", "-h", folder, "-p", "5432", "-U", EmbeddedPostgres.user]
    try embedded.run("createdb", ["-h", folder, "-p", "5432", "-U", EmbeddedPostgres.user, EmbeddedPostgres.database])
    try embedded.run(
        "psql", psql + ["-d", EmbeddedPostgres.database, "-c", "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('made before the upgrade')"])
    if !leaveRunning {
        try embedded.run("pg_ctl", ["-D", embedded.clusterDirectory.path, "-m", "fast", "-w", "stop"])
    }
}

/// A folder under /tmp the `postgres` user can reach into (the cluster's own folder is made 0700).
private func withScratchFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = URL(fileURLWithPath: "/tmp/fulfilment-pgauth-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    chmod(folder.path, 0o755)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

private func mode(_ path: String) throws -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { throw TestSetupError("stat \(path): \(String(cString: strerror(errno)))") }
    return info.st_mode & 0o777
}
