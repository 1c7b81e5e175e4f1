import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 30: the embedded cluster's disk fills. A real `fulfilment serve` runs its embedded
/// cluster on a size-limited tmpfs; a file fills that filesystem; checkouts must get a clear
/// `503 storage_full` (never a 500), write nothing half, and work again once the file is gone,
/// without restarting anything.
@Suite("A full disk under the embedded cluster: 503 storage_full, nothing half-written, recovered without a restart")
struct FullDiskTests {
    @Test("statvfs figures: over 90 % of what users may use is nearly full; blocks reserved for root count as used up")
    func threshold() {
        let block: UInt64 = 4096
        // 850 of 950 usable blocks used (100 more are free but root's): 89 %, no warning.
        let roomy = DiskSpace(blockSize: block, blocks: 1000, freeBlocks: 150, availableBlocks: 100)
        #expect(!roomy.isNearlyFull)
        #expect(abs(roomy.usedFraction - 850.0 / 950.0) < 1e-9)
        // 905 of 1000 used: warn.
        #expect(DiskSpace(blockSize: block, blocks: 1000, freeBlocks: 95, availableBlocks: 95).isNearlyFull)
        // Exactly 90 % is not over it.
        #expect(!DiskSpace(blockSize: block, blocks: 1000, freeBlocks: 100, availableBlocks: 100).isNearlyFull)
        // Only root's reserve left: the server user can write nothing, 100 %.
        let reserveOnly = DiskSpace(blockSize: block, blocks: 1000, freeBlocks: 50, availableBlocks: 0)
        #expect(reserveOnly.usedFraction == 1)
        #expect(reserveOnly.isNearlyFull)
    }

    @Test(
        "serve's start-up log warns when the data folder's filesystem is over 90 % full, naming the folder and the free space",
        .enabled(if: SmallFilesystem.canMount, SmallFilesystem.cannotMountReason))
    func startupWarning() async throws {
        try await SmallFilesystem.with(megabytes: 8) { mount in
            try SmallFilesystem.fill(mount, leaving: 256 * 1024)
            let data = mount.appendingPathComponent("pg")
            let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
            _ = try PickupKeys.generate(in: keys)
            defer { try? FileManager.default.removeItem(at: keys) }
            // The cluster cannot even be made in what is left, so serve stops; the warning came first.
            let (status, output) = try await ServiceProcess.run(
                ["serve", "--data-dir", data.path, "--keys-dir", keys.path, "--port", String(try ServiceProcess.freePort())])
            #expect(status != 0, "\(output)")
            #expect(output.contains("nearly full"), "\(output)")
            #expect(output.contains(data.path), "\(output)")
            #expect(output.contains("MiB"), "\(output)")
        }
    }

    @Test(
        "checkouts while the data folder's filesystem is full: 503 storage_full with Retry-After, never a 500; then recovered",
        .enabled(if: SmallFilesystem.canMount, SmallFilesystem.cannotMountReason))
    func fullDisk() async throws {
        try await SmallFilesystem.with(megabytes: 256) { mount in
            let data = mount.appendingPathComponent("pg")
            let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
            _ = try PickupKeys.generate(in: keys)
            defer { try? FileManager.default.removeItem(at: keys) }
            let embedded = try EmbeddedPostgres(dataDirectory: data, logger: Logger(label: "test"))
            let port = try ServiceProcess.freePort()
            let log = URL(fileURLWithPath: "/tmp/fulfilment-fulldisk-\(port).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let pid = try ServiceProcess.spawn(
                ServiceProcess.binary,
                ["serve", "--data-dir", data.path, "--keys-dir", keys.path, "--port", String(port)],
                environment: ["FULFILMENT_BCRYPT_COST": "4", "LOG_LEVEL": "notice"], output: log)
            defer { stopService(pid, embedded) }  // no server left holding the filesystem to unmount
            var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
            func running() -> Bool { waitpid(pid, nil, WNOHANG) == 0 }

            // The first start makes the cluster (initdb) and migrates it: a generous deadline.
            let probe = TestApp(transport: .fresh(port: port), database: embedded.connectionInfo, keyring: ServiceProcess.placeholderKeyring)
            var ready = false
            for _ in 0..<900 where !ready {
                try #require(running(), "fulfilment serve exited before it was ready:\n\(logText)")
                ready = (try? await probe.request(.get, "/readyz").status) == .ok
                if !ready { try await Task.sleep(for: .milliseconds(200)) }
            }
            try #require(ready, "fulfilment serve was not ready within 180 s:\n\(logText)")
            #expect(!logText.contains("nearly full"), "warned with the disk mostly empty:\n\(logText)")

            let app = TestApp(transport: .fresh(port: port), database: embedded.connectionInfo, keyring: ServiceProcess.placeholderKeyring)
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 100_000)
            let customers = try await (0..<4).asyncMap { _ in try await app.registerCustomer() }
            var created: Set<String> = []
            var answered: [String] = []  // every 201's order, in order, with what came before it
            var statuses: [String: Int] = [:]
            /// One customer's cart and checkout; nil when the cart could not be filled. Every
            /// answer must be one the contract promises: 200/201, or 503 with Retry-After.
            func shop(_ customer: Session, key: String = UUID().uuidString) async throws -> TestReply? {
                let chosen = try await app.request(.put, "/v1/cart", json: ["storeId": .string(store)], token: customer.token)
                let item =
                    chosen.status == .ok
                    ? try await app.request(.put, "/v1/cart/items/\(product)", json: ["quantity": 2], token: customer.token) : chosen
                for reply in [chosen, item] where reply.status != .ok { record(reply, "cart") }
                guard item.status == .ok else { return nil }
                let reply = try await app.checkout(customer, key: key)
                record(reply, "checkout")
                if reply.status == .created, let id = reply.json["id"].string {
                    created.insert(id)
                    answered.append(id)
                }
                return reply
            }
            func record(_ reply: TestReply, _ what: String) {
                let label = "\(what) \(reply.status.code) \(reply.errorCode ?? "-")"
                statuses[label, default: 0] += 1
                #expect(
                    reply.status == .ok || reply.status == .created
                        || (reply.status == .serviceUnavailable
                            && ["storage_full", "database_unavailable"].contains(reply.errorCode ?? "")),
                    "\(label): \(reply.text)")
                if reply.errorCode == "storage_full" { #expect(reply.headers[.retryAfter] == "30") }
            }

            for customer in customers { #expect(try await shop(customer)?.status == .created) }
            // A fresh WAL segment first, so the WAL has room while the tables do not (a WAL that
            // cannot grow is PostgreSQL's PANIC, the crash-restart path, not this test's): the
            // switch only marks the segment done, the checkpoint's record then creates the next one.
            _ = try await sql("SELECT pg_switch_wal()", on: embedded.connectionInfo)
            _ = try await sql("CHECKPOINT", on: embedded.connectionInfo)
            let filler = try SmallFilesystem.fill(mount, leaving: 0)

            // While full: shop until checkouts have been refused a few times.
            var refused: [Int: String] = [:]  // customer index → the key of their last refused checkout
            for attempt in 0..<600 where refused.count < customers.count {
                let index = attempt % customers.count
                guard refused[index] == nil else { continue }
                let key = UUID().uuidString
                if let reply = try await shop(customers[index], key: key), reply.errorCode == "storage_full" { refused[index] = key }
            }
            #expect(!refused.isEmpty, "no checkout was refused with storage_full: \(statuses)\n\(logText)")
            #expect(!statuses.keys.contains { $0.contains(" 500 ") }, "\(statuses)")
            #expect(running(), "the service died:\n\(logText)")
            #expect(try await app.request(.get, "/readyz").status == .ok, "the database still answers; only its disk is full")

            // Space freed: the very checkouts that were refused now succeed (their carts and keys
            // were left untouched), without restarting the service.
            try FileManager.default.removeItem(at: filler)
            for (index, key) in refused {
                var reply: TestReply?
                for _ in 0..<300 where reply?.status != .created {
                    reply = try await app.checkout(customers[index], key: key)
                    record(reply!, "checkout after")
                    if reply?.status != .created { try await Task.sleep(for: .milliseconds(200)) }
                }
                #expect(reply?.status == .created, "\(reply?.text ?? "")")
                if let id = reply?.json["id"].string { created.insert(id) }
            }
            #expect(try await shop(customers[0])?.status == .created)
            #expect(running(), "the service was restarted or died:\n\(logText)")

            // Exactly the answered checkouts are stored, each whole; reserved is what they hold.
            let stored = Set(try await sql("SELECT id FROM orders WHERE store_id = $1", [store], on: embedded.connectionInfo).compactMap { $0[0] })
            #expect(
                stored == created,
                "stored \(stored.count), answered 201: \(created.count); \(statuses); missing at \(answered.indices.filter { !stored.contains(answered[$0]) })"
            )
            let broken = try await sql(
                """
                SELECT count(*) FROM orders o
                WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)
                   OR NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id)
                   OR NOT EXISTS (SELECT 1 FROM pickup_tokens t WHERE t.order_id = o.id)
                """, on: embedded.connectionInfo)
            #expect(broken[0][0] == "0")
            let stock = try await app.stock(store: store, product: product)
            #expect(stock.reserved == created.count * 2)
        }
    }
}

/// A size-limited tmpfs, mounted for one test: a disk that can really fill.
enum SmallFilesystem {
    /// Mounting needs root and a sandbox that allows it; tried once with a 1 MiB tmpfs.
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let point = "/tmp/fulfilment-mount-check-\(getpid())"
        guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)) != nil else { return false }
        defer { rmdir(point) }
        guard (try? EmbeddedPostgres.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", point])) != nil else { return false }
        _ = try? EmbeddedPostgres.execute("/bin/umount", [point])
        return true
    }()

    static let cannotMountReason: Comment =
        "mounting a size-limited tmpfs needs root and a machine that allows mount (this one does not); the SQLSTATE mapping is still covered by ErrorMiddleware"

    /// Mounts a tmpfs of `megabytes` on a short path (the cluster's socket path must stay short),
    /// runs `body` on it and unmounts it.
    static func with(megabytes: Int, _ body: (URL) async throws -> Void) async throws {
        let point = URL(fileURLWithPath: "/tmp/fdisk-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        defer { rmdir(point.path) }
        try EmbeddedPostgres.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", point.path])
        defer {
            if (try? EmbeddedPostgres.execute("/bin/umount", [point.path])) == nil {
                _ = try? EmbeddedPostgres.execute("/bin/umount", ["-l", point.path])
            }
        }
        try await body(point)
    }

    /// Writes a file until the filesystem refuses more (`ENOSPC`), then gives back `leaving` bytes.
    @discardableResult
    static func fill(_ mount: URL, leaving: Int) throws -> URL {
        let file = mount.appendingPathComponent("filler")
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw TestSetupError("open \(file.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        for chunk in [1 << 20, 4096] {
            let bytes = [UInt8](repeating: 0x55, count: chunk)
            while true {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, chunk) }
                if count <= 0 { break }
                written += count
            }
            guard errno == ENOSPC else { throw TestSetupError("filling \(file.path): \(String(cString: strerror(errno)))") }
        }
        if leaving > 0 { ftruncate(descriptor, off_t(max(0, written - leaving))) }
        return file
    }
}
