import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A shop on the zero-config default keeps its orders in the embedded cluster: it must be as
/// safe as any PostgreSQL, and its backups must hold every order committed before they began
/// (issue 12).
@Suite("Durability: a durable embedded cluster, consistent backups and restores")
struct DurabilityTests {
    @Test("the embedded cluster, started as `serve` starts it, runs with fsync, full_page_writes and synchronous_commit on")
    func embeddedIsDurable() async throws {
        try await withEmbeddedCluster { embedded in
            let settings = try await sql(
                "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'full_page_writes', 'synchronous_commit') ORDER BY name",
                on: embedded.connectionInfo)
            #expect(settings == [["fsync", "on"], ["full_page_writes", "on"], ["synchronous_commit", "on"]])
        }
    }

    @Test("a backup taken during checkouts restores elsewhere with every order committed before it began")
    func backupDuringCheckouts() async throws {
        let file = URL(fileURLWithPath: "/tmp/fulfilment-backup-\(UInt32.random(in: 0...UInt32.max)).dump")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 1000)
            let customers = try await (0..<4).asyncMap { _ in try await app.registerCustomer() }
            let committed = OrderLog()
            let backupStarted = OrderLog()
            // Four customers check out over and over on their own connections while the backup runs.
            let shoppers = Task {
                try await app.race(customers.count) { index, racer in
                    var placed = 0
                    while await !committed.isStopped, placed < 200 {
                        try await racer.fillCart(customers[index], store: store, [(product, 1)])
                        let reply = try await racer.checkout(customers[index])
                        guard reply.status == .created, let id = reply.json["id"].string else { continue }
                        await committed.add(id)
                        placed += 1
                    }
                    return placed
                }
            }
            for _ in 0..<3000 where await committed.count < 8 { try await Task.sleep(for: .milliseconds(20)) }
            // Every order a customer saw succeed before the backup began must be in it.
            await backupStarted.add(contentsOf: await committed.ids)
            let database = app.database
            let bytes = try await Migrator.offloaded { try Backup.dump(database, to: file) }
            #expect(bytes > 0)
            await committed.stop()
            let placed = try await shoppers.value
            #expect(placed.reduce(0, +) == (await committed.count))
            #expect(!FileManager.default.fileExists(atPath: file.path + ".partial"))

            try await withTestDatabase(empty: true) { restored in
                try await Migrator.offloaded { try Backup.restore(file, into: restored) }
                let ids = Set(try await sql("SELECT id FROM orders", on: restored).compactMap { $0[0] })
                let before = await backupStarted.ids
                #expect(before.count >= 8)
                #expect(before.isSubset(of: ids), "orders committed before the backup began are missing from it")
                // The restored database is a working one: migrations recorded, stock consistent.
                let reserved = try await sql(
                    "SELECT reserved, (SELECT count(*) FROM orders) FROM stock WHERE product_id = $1", [product], on: restored)
                #expect(reserved[0][0] == reserved[0][1])
                #expect(try await sql("SELECT count(*) > 0 FROM schema_migrations", on: restored)[0][0] == "t")
                // A second restore into it is refused: it is not empty any more.
                #expect(throws: Backup.Failure.self) { try Backup.restore(file, into: restored) }
            }
        }
    }
}

/// The ids of orders placed so far, shared between racing customers and the test.
actor OrderLog {
    private(set) var ids: Set<String> = []
    private(set) var isStopped = false
    var count: Int { ids.count }
    func add(_ id: String) { ids.insert(id) }
    func add(contentsOf more: Set<String>) { ids.formUnion(more) }
    func stop() { isStopped = true }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
