import Foundation
import Logging
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The service as an operator runs it, broken on purpose: real `fulfilment serve` processes,
/// killed, signalled and doubled (issue 12).
@Suite("Faults: kill -9, signals, key rotation and two instances, against real processes")
struct ProcessFaultTests {
    @Test("a private key file other users can read is refused at start-up, with the command that fixes it")
    func worldReadableKeyRefused() async throws {
        try await withKeysAndDatabase { keys, database in
            let file = keys.appendingPathComponent(PickupKeyring.fileName(for: PickupKeyID(1))).path
            chmod(file, 0o644)
            let (status, output) = try await ServiceProcess.run(
                [
                    "serve", "--database-url", Backup.conninfo(database), "--port", String(try ServiceProcess.freePort()),
                    "--keys-dir", keys.path,
                ])
            #expect(status != 0)
            #expect(output.contains("chmod 600 \(file)"), "\(output)")
        }
    }

    @Test("`keys rotate` then SIGHUP: the running service signs with the new key and still accepts the old one")
    func sighupReloadsKeys() async throws {
        try await withKeysAndDatabase { keys, database in
            // Polling is turned far down, so only the signal can explain a reload.
            let service = try await ServiceProcess.start(
                database: database, keysDir: keys, environment: ["FULFILMENT_KEYS_POLL_SECONDS": "3600"])
            defer {
                service.signal(SIGKILL)
                _ = service.exitStatus()
            }
            let app = service.app(database: database)
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, before, _) = try await app.placeOrder(store: store)
            #expect(try PickupToken(text: before["pickupToken"].string!).keyID == PickupKeyID(1))

            let rotated = try await ServiceProcess.run(["keys", "rotate", "--dir", keys.path])
            #expect(rotated.status == 0, "\(rotated.output)")
            service.signal(SIGHUP)
            var published = 0
            for _ in 0..<100 where published < 2 {
                published = try await app.request(.get, "/v1/pickup-keys").json["items"].array.count
                if published < 2 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(published == 2)
            let (_, after, _) = try await app.placeOrder(store: store)
            #expect(try PickupToken(text: after["pickupToken"].string!).keyID == PickupKeyID(2))
            // A receipt signed before the rotation still hands its order over.
            #expect(try await app.transition(before["id"].string!, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(before, by: staff).status == .created)
            #expect(try await app.scan(before["pickupToken"].string!, by: staff).status == .ok)
            #expect(service.exitStatus() == nil, "the service must keep running")
        }
    }

    @Test("kill -9 during a stream of checkouts: every checkout a client saw succeed is stored, whole; stock adds up; tokens survive")
    func killDuringCheckouts() async throws {
        try await withKeysAndDatabase { keys, database in
            let service = try await ServiceProcess.start(database: database, keysDir: keys)
            let app = service.app(database: database)
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 10_000)
            let customers = try await (0..<4).asyncMap { _ in try await app.registerCustomer() }
            let seen = OrderLog()
            let shoppers = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for customer in customers {
                        group.addTask {
                            // Each customer keeps shopping until the service is gone (at most 500 orders).
                            for _ in 0..<500 {
                                guard (try? await app.fillCart(customer, store: store, [(product, 2)])) != nil,
                                    let reply = try? await app.checkout(customer)
                                else { return }
                                if reply.status == .created, let id = reply.json["id"].string { await seen.add(id) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            for _ in 0..<6000 where await seen.count < 20 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await seen.count >= 20, "the customers never got going")
            service.signal(SIGKILL)
            _ = try await service.waitForExit()
            try await shoppers.value

            let stored = Set(try await sql("SELECT id FROM orders", on: database).compactMap { $0[0] })
            let confirmed = await seen.ids
            #expect(confirmed.isSubset(of: stored), "a checkout the customer saw succeed is missing")
            try await expectOrdersWholeAndStockAddingUp(product: product, onHand: 10_000, on: database)

            // Restarted, it serves the very same receipts.
            let again = try await ServiceProcess.start(database: database, keysDir: keys, port: service.port)
            defer {
                again.signal(SIGKILL)
                _ = again.exitStatus()
            }
            let staff = try await app.signIn(role: .staff, store: store)
            let anyOrder = try #require(confirmed.first)
            let token = try #require(try await sql("SELECT text FROM pickup_tokens WHERE order_id = $1", [anyOrder], on: database)[0][0])
            #expect(try await app.transition(anyOrder, to: "packaged", by: staff).status == .ok)
            let preview = try await app.scan(token, by: staff, preview: true)
            #expect(preview.errorCode == "payment_required", "\(preview.text)")
        }
    }

    @Test("two instances on one database: the oversell race and the double scan hold across them")
    func twoInstances() async throws {
        try await withKeysAndDatabase { keys, database in
            let first = try await ServiceProcess.start(database: database, keysDir: keys)
            defer {
                first.signal(SIGKILL)
                _ = first.exitStatus()
            }
            let second = try await ServiceProcess.start(database: database, keysDir: keys)
            defer {
                second.signal(SIGKILL)
                _ = second.exitStatus()
            }
            let instances = [first.app(database: database), second.app(database: database)]
            let app = instances[0]
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 3)
            let customers = try await (0..<10).asyncMap { _ in try await app.registerCustomer() }
            for customer in customers { try await app.fillCart(customer, store: store, [(product, 1)]) }
            // Customers spread over both instances, all at once.
            let replies = try await withThrowingTaskGroup(of: TestReply.self) { group in
                for (index, customer) in customers.enumerated() {
                    group.addTask { try await instances[index % 2].checkout(customer) }
                }
                return try await group.reduce(into: [TestReply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == .created }.count == 3)
            #expect(replies.filter { $0.errorCode == "insufficient_stock" }.count == 7)
            #expect(try await app.stock(store: store, product: product) == (3, 3))

            // Two desks, one per instance, scan the same receipt at once: one hand-over.
            let staff = try await app.signIn(role: .staff, store: store)
            let order = try #require(replies.first { $0.status == .created }?.json)
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)
            let token = order["pickupToken"].string!
            let scans = try await withThrowingTaskGroup(of: Int.self) { group in
                for instance in instances { group.addTask { try await instance.scan(token, by: staff).status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(scans.sorted() == [200, 409])
            #expect(try await app.stock(store: store, product: product) == (2, 2))
        }
    }

    @Test("SIGTERM: a checkout in flight (waiting on a row lock) is answered, then the service refuses new requests and exits 0")
    func gracefulShutdown() async throws {
        try await withKeysAndDatabase { keys, database in
            let service = try await ServiceProcess.start(database: database, keysDir: keys)
            let app = service.app(database: database)
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 5)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            // Hold the product's stock row, so the checkout is certainly in flight when the signal comes.
            let holder = try await HeldTransaction.begin(on: database, "SELECT 1 FROM stock WHERE product_id = '\(product)' FOR UPDATE")
            let checkout = Task { try await app.checkout(customer) }
            var waiting = false
            for _ in 0..<200 where !waiting {
                waiting =
                    try await sql(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                        on: database)[0][0] != "0"
                if !waiting { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(waiting, "the checkout never reached the lock")
            service.signal(SIGTERM)
            try await Task.sleep(for: .milliseconds(300))
            // Shutting down: no new connection is taken while the checkout finishes.
            await #expect(throws: (any Error).self) { try await app.request(.get, "/healthz") }
            try await holder.commit()
            let reply = try await checkout.value
            #expect(reply.status == .created, "\(reply.text)")
            let status = try await service.waitForExit()
            #expect(status == 0, "\(service.log)")
            await #expect(throws: (any Error).self) { try await app.request(.get, "/healthz") }
            #expect(try await app.stock(store: store, product: product) == (5, 1))
        }
    }
}

/// A transaction a test keeps open across steps (a lock held on purpose), on a connection of its own.
final class HeldTransaction: @unchecked Sendable {
    private let connection: LibPQConnection

    private init(_ connection: LibPQConnection) { self.connection = connection }

    static func begin(on database: ConnectionInfo, _ statement: String) async throws -> HeldTransaction {
        try await Migrator.offloaded {
            let connection = try LibPQConnection(database)
            try connection.execute("BEGIN")
            try connection.execute(statement)
            return HeldTransaction(connection)
        }
    }

    func commit() async throws {
        _ = try await Migrator.offloaded { try self.connection.execute("COMMIT") }
    }
}
