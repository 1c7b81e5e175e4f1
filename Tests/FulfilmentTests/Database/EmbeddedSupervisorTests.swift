import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 30: `fulfilment serve` on its embedded cluster starts that cluster again when it dies
/// under it, and gives up, saying why, on one that cannot start. Real processes throughout: the
/// service, its PostgreSQL, and `kill -9`.
@Suite("The embedded cluster is supervised: started again after kill -9, given up on when it cannot start")
struct EmbeddedSupervisorTests {
    @Test("kill -9 of the embedded postmaster during checkouts: ready again within 15 s, every order stored once, stock adds up, one restart counted")
    func restartedAfterKill() async throws {
        try await withEmbeddedService { service in
            let app = service.app
            #expect(try await service.restartsCounted() == 0)
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 10_000)
            let customers = try await (0..<4).asyncMap { _ in try await app.registerCustomer() }
            let orders = ShopperLog()
            // Four customers, each over connections of its own, shop until told to stop. Every
            // checkout keeps its idempotency key until it is answered with its order, as a client
            // that retries should: 201 (placed now) or 200 (placed by an attempt answered 503).
            let shoppers = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for customer in customers {
                        group.addTask {
                            while await !orders.isStopped {
                                try await retrying(orders) { try? await app.fillCart(customer, store: store, [(product, 2)]) }
                                let key = UUID().uuidString
                                try await retrying(orders) { () -> Bool? in
                                    guard let reply = try? await app.checkout(customer, key: key) else { return nil }
                                    await orders.record(reply)
                                    return reply.status == .created || reply.status == .ok ? true : nil
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            defer { shoppers.cancel() }
            try await orders.waitFor(20, "the customers never got going")

            let postmaster = try #require(service.embedded.postmasterPID)
            kill(postmaster, SIGKILL)
            let killed = ContinuousClock.now
            // Ready again without a person: the exit seen, the cluster started, the pool back.
            var ready = false
            while !ready, ContinuousClock.now - killed < .seconds(15) {
                if service.lines(containing: "started again").count == 1 {
                    ready = (try? await app.request(.get, "/readyz").status) == .ok
                }
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(ready, "not ready again within 15 s of the kill:\n\(service.log)")
            // Checkouts go through again (the pool reconnected), then the customers stop.
            let before = await orders.count
            try await orders.waitFor(before + 10, "no checkout went through after the restart")
            await orders.stop()
            try await shoppers.value

            let statuses = await orders.statuses
            #expect(Set(statuses.keys).isSubset(of: ["201", "200", "503 database_unavailable"]), "\(statuses)")
            #expect(await orders.retryAfterMissing == 0)
            let database = service.embedded.connectionInfo
            let stored = try await sql("SELECT id FROM orders", on: database).compactMap { $0[0] }
            let answered = await orders.ids
            #expect(Set(stored) == answered, "orders stored and orders answered differ")
            #expect(stored.count == answered.count)
            #expect(await orders.created.isSubset(of: answered))
            try await expectOrdersWholeAndStockAddingUp(product: product, onHand: 10_000, on: database)

            #expect(try await service.restartsCounted() == 1)
            #expect(service.lines(containing: "pid \(postmaster)) exited").count == 1, "\(service.log)")
            #expect(service.isRunning)
        }
    }

    @Test(
        "a cluster that cannot start again (its folder made unusable): five tries backing off, one message why, then quiet; /readyz 503, /healthz 200"
    )
    func givesUpOnAClusterThatCannotStart() async throws {
        try await withEmbeddedService { service in
            let app = service.app
            let cluster = service.embedded.clusterDirectory.path
            chmod(cluster, 0o000)  // what the service itself does not undo (it chowns and chmods only the folder above)
            defer { chmod(cluster, 0o700) }
            kill(try #require(service.embedded.postmasterPID), SIGKILL)

            // 1 + 2 + 4 + 8 + 16 s of waiting, then the message.
            var gaveUp: [Substring] = []
            for _ in 0..<1200 where gaveUp.isEmpty {
                gaveUp = service.lines(containing: "could not be kept running")
                if gaveUp.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(gaveUp.count == 1, "never gave up:\n\(service.log)")
            // pg_ctl's own reason, with the folder it names, so a person knows what to fix.
            #expect(gaveUp[0].contains("Permission denied") && gaveUp[0].contains(cluster), "\(gaveUp[0])")
            #expect(service.lines(containing: "did not start (try").count == 5, "\(service.log)")

            #expect(try await app.request(.get, "/readyz").status == .serviceUnavailable)
            #expect(try await app.request(.get, "/healthz").status == .ok)
            let refused = try await app.request(.get, "/v1/stores/\(UUID())")
            #expect(refused.status == .serviceUnavailable && refused.errorCode == "database_unavailable", "\(refused.text)")
            // No more tries: a while later the service still runs, and has tried nothing since.
            try await Task.sleep(for: .seconds(3))
            #expect(service.isRunning)
            #expect(service.lines(containing: "did not start (try").count == 5, "\(service.log)")
            #expect(service.lines(containing: "could not be kept running").count == 1)
            #expect(try await service.restartsCounted() == 0)
        }
    }
}

/// A real `fulfilment serve` on an embedded cluster of its own (`--data-dir`, no database URL),
/// in a folder under /tmp the `postgres` user can reach.
private struct EmbeddedService {
    let pid: pid_t
    let port: Int
    let logFile: URL
    let embedded: EmbeddedPostgres

    var app: TestApp {
        TestApp(transport: .fresh(port: port), database: embedded.connectionInfo, keyring: ServiceProcess.placeholderKeyring)
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func lines(containing text: String) -> [Substring] { log.split(separator: "\n").filter { $0.contains(text) } }

    /// Still running (once it has ended, it is reaped here and this stays false).
    var isRunning: Bool { waitpid(pid, nil, WNOHANG) == 0 }

    /// `fulfilment_embedded_postgres_restarts_total` from `/metrics`.
    func restartsCounted() async throws -> Int {
        let metrics = try await app.request(.get, "/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("fulfilment_embedded_postgres_restarts_total ") }
        return try #require(line.flatMap { Int($0.split(separator: " ").last ?? "") }, "\(metrics)")
    }
}

/// Starts the service on a new data folder, waits until it is ready, runs `body`, then stops the
/// service and whatever cluster is left, and removes the folder.
private func withEmbeddedService(_ body: (EmbeddedService) async throws -> Void) async throws {
    let folder = URL(fileURLWithPath: "/tmp/fulfilment-supervised-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    chmod(folder.path, 0o755)
    defer { try? FileManager.default.removeItem(at: folder) }
    let keys = folder.appendingPathComponent("keys")
    _ = try PickupKeys.generate(in: keys)
    let embedded = try EmbeddedPostgres(dataDirectory: folder.appendingPathComponent("pg"), logger: Logger(label: "test"))
    let port = try ServiceProcess.freePort()
    let pid = try ServiceProcess.spawn(
        ServiceProcess.binary,
        ["serve", "--data-dir", embedded.dataDirectory.path, "--keys-dir", keys.path, "--port", String(port)],
        environment: ["FULFILMENT_BCRYPT_COST": "4", "LOG_LEVEL": "notice"], output: folder.appendingPathComponent("serve.log"))
    let service = EmbeddedService(pid: pid, port: port, logFile: folder.appendingPathComponent("serve.log"), embedded: embedded)
    defer { stopService(pid, embedded) }
    // The first start makes the cluster (initdb, with fsync) and migrates it: a generous deadline.
    var ready = false
    for _ in 0..<900 where !ready {
        try #require(service.isRunning, "fulfilment serve exited before it was ready:\n\(service.log)")
        ready = (try? await service.app.request(.get, "/readyz").status) == .ok
        if !ready { try await Task.sleep(for: .milliseconds(200)) }
    }
    try #require(ready, "fulfilment serve was not ready within 180 s:\n\(service.log)")
    try await body(service)
}

/// Runs `attempt` until it gives a value, a tenth of a second apart, for up to a minute; gives
/// up early when the test has stopped the shoppers.
private func retrying<T>(_ log: ShopperLog, _ attempt: () async throws -> T?) async throws {
    for _ in 0..<600 {
        if try await attempt() != nil { return }
        if await log.isStopped { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    throw TestSetupError("a request kept failing for a minute")
}

/// What the shoppers were answered: the orders they learned of, and every checkout's status.
private actor ShopperLog {
    private(set) var ids: Set<String> = []
    /// Orders answered 201: placed by that very request.
    private(set) var created: Set<String> = []
    private(set) var statuses: [String: Int] = [:]
    private(set) var retryAfterMissing = 0
    private(set) var isStopped = false
    var count: Int { ids.count }

    func record(_ reply: TestReply) {
        let code = reply.status.code
        statuses[code == 503 ? "503 \(reply.errorCode ?? "-")" : String(code), default: 0] += 1
        if code == 503 && reply.headers[.retryAfter] == nil { retryAfterMissing += 1 }
        guard code == 201 || code == 200, let id = reply.json["id"].string else { return }
        ids.insert(id)
        if code == 201 { created.insert(id) }
    }

    func stop() { isStopped = true }

    /// Waits (up to a minute) until `count` orders are known.
    func waitFor(_ count: Int, _ failure: String) async throws {
        for _ in 0..<600 where ids.count < count { try await Task.sleep(for: .milliseconds(100)) }
        guard ids.count >= count else { throw TestSetupError("\(failure) (\(ids.count) orders)") }
    }
}
