import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A running service (real HTTP on a free loopback port) on a database of its own.
struct TestApp: Sendable {
    /// The payment webhook secret every test app is configured with.
    static let webhookSecret = "test-webhook-secret"
    /// How requests reach the service.
    enum Transport: Sendable {
        /// The test framework's client: one connection, so its requests go one after another.
        case shared(any TestClientProtocol)
        /// A connection of this racer's own (see ``race(_:_:)``).
        case own(TestClient, port: Int)
        /// A new connection for every request: for a service process a test kills and restarts.
        case fresh(port: Int)
    }

    var transport: Transport
    let database: ConnectionInfo
    /// The pickup keys the service signs with (in memory unless the test passed its own).
    let keyring: PickupKeyring

    /// Sends a request; `json` is encoded as the body, `rawBody` is sent as given.
    @discardableResult
    func request(
        _ method: HTTPRequest.Method, _ path: String, json: JSONValue? = nil, rawBody: String? = nil,
        token: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestReply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONEncoder().encode(json))
        } else if let rawBody {
            body = ByteBuffer(string: rawBody)
        }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await send(path, method: method, headers: headers, body: body)
    }

    /// The port the service listens on.
    var port: Int? {
        switch transport {
        case .shared(let client): client.port
        case .own(_, let port), .fresh(let port): port
        }
    }

    /// Sends one request on this app's connection, and fails the test (rather than hanging the
    /// run) when no answer comes within a minute.
    func send(_ path: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestReply {
        try await answerWithin(seconds: 60, "\(method) \(path)") {
            try await self.exchange(path, method: method, headers: headers, body: body)
        }
    }

    private func exchange(_ path: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestReply {
        let request = TestClient.Request(path, method: method, headers: headers, body: body)
        let response: TestClient.Response
        switch transport {
        case .shared(let client):
            let shared = try await client.executeRequest(uri: path, method: method, headers: headers, body: body)
            return TestReply(status: shared.status, headers: shared.headers, body: Data(buffer: shared.body))
        case .own(let connection, _):
            response = try await connection.execute(request)
        case .fresh(let port):
            response = try await TestClient.withClient(host: "127.0.0.1", port: port) { try await $0.execute(request) }
        }
        return TestReply(status: response.status, headers: response.headers, body: Data(buffer: response.body ?? ByteBuffer()))
    }

    /// Runs `count` racers at the same moment, each on a TCP connection of its own, so their
    /// requests really overlap in the service and in PostgreSQL (through the one test client
    /// they would be sent one after another, and a race test would pass without its lock).
    /// Every racer connects first; then all are released together.
    func race<T: Sendable>(_ count: Int, _ racer: @escaping @Sendable (Int, TestApp) async throws -> T) async throws -> [T] {
        guard let port else { throw TestSetupError("race needs a live server") }
        let connections = (0..<count).map { _ in TestClient(host: "127.0.0.1", port: port) }
        for connection in connections { connection.connect() }
        do {
            // A request each connection has answered proves it is open before the start signal.
            for connection in connections { _ = try await connection.get("/healthz") }
            let start = StartSignal()
            let results = try await withThrowingTaskGroup(of: (Int, T).self) { group in
                for (index, connection) in connections.enumerated() {
                    var own = self
                    own.transport = .own(connection, port: port)
                    let racerApp = own
                    group.addTask {
                        await start.wait()
                        return (index, try await racer(index, racerApp))
                    }
                }
                await start.open(waiters: count)
                return try await group.reduce(into: [(Int, T)]()) { $0.append($1) }
            }
            for connection in connections { try await connection.shutdown() }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        } catch {
            for connection in connections { try? await connection.shutdown() }
            throw error
        }
    }
}

/// Holds racers until every one of them is waiting, then lets them all go at once.
actor StartSignal {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var opened = false
    private var whenAllWaiting: CheckedContinuation<Void, Never>?
    private var expected = Int.max

    func wait() async {
        if opened { return }
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            if waiting.count >= expected {
                whenAllWaiting?.resume()
                whenAllWaiting = nil
            }
        }
    }

    /// Waits until `waiters` racers are waiting, then releases them together.
    func open(waiters: Int) async {
        expected = waiters
        if waiting.count < waiters {
            await withCheckedContinuation { continuation in whenAllWaiting = continuation }
        }
        opened = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

struct TestReply: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null }
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The `code` of an error envelope, or nil when the body is not one.
    var errorCode: String? { json["error"]["code"].string }
    var errorMessage: String? { json["error"]["message"].string }
}

/// Builds the same application `fulfilment serve` runs, on a fresh database, serves it on a
/// free port, and hands a client to `body`.
/// `keyring` defaults to a fresh in-memory one with a single key.
/// `hangLimit` bounds the test and its shutdown together (a hang guard, not a speed check): a
/// test that works a whole day minute by minute beside the full suite on 2 cores needs more.
func withApp<T: Sendable>(
    database: ConnectionInfo? = nil, logHandler: LogCapture? = nil, keyring: PickupKeyring? = nil, hangLimit: Double = 600,
    configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestApp) async throws -> T
) async throws -> T {
    let keyring = try keyring ?? PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])
    if let database {
        return try await runApp(
            database: database, logHandler: logHandler, keyring: keyring, hangLimit: hangLimit, configure: configure, body)
    }
    return try await withTestDatabase { info in
        try await runApp(database: info, logHandler: logHandler, keyring: keyring, hangLimit: hangLimit, configure: configure, body)
    }
}

private func runApp<T: Sendable>(
    database: ConnectionInfo, logHandler: LogCapture?, keyring: PickupKeyring, hangLimit: Double,
    configure: @Sendable (inout AppConfiguration) -> Void,
    _ body: @escaping @Sendable (TestApp) async throws -> T
) async throws -> T {
    var logger = Logger(label: "fulfilment-test") { label in
        logHandler.map { $0 as any LogHandler } ?? SurfacingLogHandler()
    }
    logger.logLevel = logHandler == nil ? .debug : .info
    var configuration = AppConfiguration(host: "127.0.0.1", port: 0, database: database, keyring: keyring)
    configuration.bcryptCost = 4  // the minimum: the tests hash many passwords
    configuration.webhookSecret = TestApp.webhookSecret
    // The test framework's client connects once and never again: a test that waits longer than
    // the head timeout between two requests would find its connection closed. The limits' own
    // tests set theirs.
    configuration.connectionLimits.headTimeout = .seconds(600)
    configure(&configuration)
    let app = try await buildApplication(configuration, logger: logger)
    // A server that cannot shut down (a request it never answers) fails its test, named, instead
    // of holding the whole run until CI gives up.
    return try await answerWithin(seconds: hangLimit, "the test app: its test and then its shutdown") {
        try await app.test(.live) { client in
            try await body(TestApp(transport: .shared(client), database: database, keyring: keyring))
        }
    }
}

/// The tests' log handlers: metadata kept as swift-log asks, and one line per event written the
/// same way whether it is printed or kept.
protocol TestLogHandler: LogHandler {}

extension TestLogHandler {
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `level message metadata`, the event's metadata over the handler's.
    func line(_ event: LogEvent) -> String {
        "\(event.level) \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })"
    }
}

/// What a test app logs that a failed run's reader needs: warnings and errors, and the service
/// group saying that one of the app's services ended (which shuts the whole app down and closes
/// its connections under a running test). Everything else is dropped.
struct SurfacingLogHandler: TestLogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    func log(event: LogEvent) {
        let message = "\(event.message)"
        let lifecycle = event.source == "ServiceLifecycle" && ["unexpectedly", "threw"].contains { message.contains($0) }
        guard event.level >= .warning || lifecycle else { return }
        FileHandle.standardError.write(Data("[test app] \(line(event))\n".utf8))
    }
}

/// Collects every log line (message and metadata) so a test can read what was logged.
final class LogCapture: TestLogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    func log(event: LogEvent) {
        let text = line(event)
        lock.withLock { lines.append(text) }
    }

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    /// The service's one line per request (`RequestScopeMiddleware`) for `method` `path`, in order.
    func requests(_ method: HTTPRequest.Method, _ path: String) -> [(status: Int, statements: Int)] {
        let logged = lock.withLock { lines }
        return logged.compactMap { line in
            guard line.hasPrefix("info request "), line.contains("\"method\": \(method)"),
                line.contains("\"path\": \(path),")
                    || line.contains("\"path\": \(path)]")
            else { return nil }
            func value(_ key: String) -> Int? {
                guard let range = line.range(of: "\"\(key)\": ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            guard let status = value("status"), let statements = value("statements") else { return nil }
            return (status, statements)
        }
    }
}

/// `operation`'s result, or a failure naming `what` after `seconds`, whichever comes first, and
/// without waiting for `operation` to stop. The test client's own read timeout cannot do this:
/// it cancels a task that waits on a future, which cancellation does not end, so a server that
/// never answered held a whole test run up until CI gave up, with nothing named.
func answerWithin<T: Sendable>(
    seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    return try await withCheckedThrowingContinuation { continuation in
        outcome.deliver(to: continuation)
        let work = Task {
            do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
        }
        let timer = Task {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            if outcome.settle(.failure(TestSetupError("no answer within \(Int(seconds)) s to \(what)"))) { work.cancel() }
        }
        outcome.onSettled { timer.cancel() }
    }
}
