import Foundation
import HummingbirdTesting
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A real `fulfilment serve` process (the binary `make test` built), for the tests that kill
/// it, signal it, restart it or run two of it against one database.
final class ServiceProcess: Sendable {
    let pid: pid_t
    let port: Int
    let logFile: URL

    private init(pid: pid_t, port: Int, logFile: URL) {
        self.pid = pid
        self.port = port
        self.logFile = logFile
    }

    static var binary: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/fulfilment").path
    }

    /// Starts `fulfilment serve` on a free loopback port against `database`, signing with the
    /// keys in `keysDir`, and waits until it answers `/readyz`.
    static func start(
        database: ConnectionInfo, keysDir: URL, port requested: Int? = nil, environment: [String: String] = [:]
    ) async throws -> ServiceProcess {
        let port = try requested ?? freePort()
        let log = URL(fileURLWithPath: "/tmp/fulfilment-serve-\(port)-\(UInt32.random(in: 0...UInt32.max)).log")
        let pid = try spawn(
            binary,
            ["serve", "--database-url", Backup.conninfo(database), "--port", String(port), "--keys-dir", keysDir.path],
            environment: ["FULFILMENT_BCRYPT_COST": "4", "LOG_LEVEL": "notice", "FULFILMENT_WEBHOOK_SECRET": TestApp.webhookSecret]
                .merging(database.password.map { ["PGPASSWORD": $0] } ?? [:]) { $1 }
                .merging(environment) { $1 },
            output: log)
        let service = ServiceProcess(pid: pid, port: port, logFile: log)
        for _ in 0..<400 {
            if let status = service.exitStatus() {
                throw TestSetupError("fulfilment serve exited (\(status)) before it was ready:\n\(service.log)")
            }
            if (try? await service.app(database: database).request(.get, "/readyz").status) == .ok { return service }
            try await Task.sleep(for: .milliseconds(50))
        }
        service.signal(SIGKILL)
        throw TestSetupError("fulfilment serve was not ready within 20 s:\n\(service.log)")
    }

    /// A client for this process: a new connection per request, so it survives restarts.
    func app(database: ConnectionInfo) -> TestApp {
        TestApp(transport: .fresh(port: port), database: database, keyring: ServiceProcess.placeholderKeyring)
    }

    /// Tests that talk to a process verify tokens with the keys on disk, not this.
    static let placeholderKeyring = try! PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// The exit status once the process has ended (reaped), or nil while it runs.
    func exitStatus() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid ? status : nil
    }

    /// Waits (bounded) for the process to end; its raw wait status.
    func waitForExit(seconds: Int = 30) async throws -> Int32 {
        for _ in 0..<(seconds * 20) {
            if let status = exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(50))
        }
        signal(SIGKILL)
        throw TestSetupError("fulfilment serve did not exit within \(seconds) s")
    }

    /// Runs a `fulfilment` command to its end; its exit status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let log = URL(fileURLWithPath: "/tmp/fulfilment-cli-\(UInt32.random(in: 0...UInt32.max)).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let pid = try spawn(binary, arguments, environment: environment, output: log)
        var status: Int32 = 0
        for _ in 0..<600 {
            if waitpid(pid, &status, WNOHANG) == pid {
                return ((status >> 8) & 0xff, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        throw TestSetupError("fulfilment \(arguments.joined(separator: " ")) did not finish")
    }

    /// A port for a service this test starts, taken below Linux's ephemeral range (32768 up):
    /// a port the kernel hands out for "any port" (every in-process test server, every client)
    /// can be taken by one of those between this check and the service's own bind, and the test
    /// then talks to the wrong server. Below that range only another pick like this one competes.
    static func freePort() throws -> Int {
        for _ in 0..<100 {
            let port = Int.random(in: 20_000...32_000)
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 }
            }
            if bound { return port }
        }
        throw TestSetupError("no free port between 20000 and 32000")
    }

    /// Starts `executable` with its output in `output`. The test cluster asks for a password, which
    /// `Backup.conninfo` leaves out of a command line (where `ps` shows it): it goes in `PGPASSWORD`,
    /// the test cluster's unless `environment` names another.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String], output: URL) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DATABASE_URL")
        if let password = try? TestDatabases.admin.password { env["PGPASSWORD"] = password }
        env.merge(environment) { $1 }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw TestSetupError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        return pid
    }
}
