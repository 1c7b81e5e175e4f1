import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a previewed import is started once however often it is clicked, runs in one
/// transaction whose progress is read while it runs, and is either committed or cancelled, never
/// both; a worker that dies leaves nothing written and reads as failed.
@Suite("Catalogue import: start, progress, commit or cancel")
struct CatalogueImportRunTests {
    /// A store with three products the manager's file counts again.
    struct Fixture {
        var store: CatalogueStore
        var manager: Session
        var csv = """
            sku,on_hand,store_price
            QC-1,20,9900
            QC-2,30,
            QC-3,40,
            """
    }

    static func fixture(_ app: TestApp) async throws -> Fixture {
        let store = try await app.catalogueStore()
        for sku in ["QC-1", "QC-2", "QC-3"] { try await app.addProduct("Product \(sku)", sku: sku, at: store, onHand: 5) }
        return Fixture(store: store, manager: try await app.signIn(role: .manager, store: store.id))
    }

    static func previewed(_ app: TestApp, _ fixture: Fixture) async throws -> String {
        let reply = try await app.uploadImport(fixture.csv, store: fixture.store.id, token: fixture.manager.token)
        guard reply.status == .created, reply.json["refusedRows"].array.isEmpty, let id = reply.json["id"].string else {
            throw TestSetupError("preview: \(reply.status) \(reply.text)")
        }
        return id
    }

    /// The store's on-hand figures by SKU, and its ledger's import rows.
    static func written(_ app: TestApp, _ fixture: Fixture) async throws -> (onHand: [String?], ledger: String?, prices: String?) {
        let onHand = try await sql(
            "SELECT s.on_hand FROM stock s JOIN products p ON p.id = s.product_id WHERE s.store_id = $1 ORDER BY p.sku", [fixture.store.id],
            on: app.database
        ).map { $0[0] }
        let ledger = try await sql(
            "SELECT count(*) FROM stock_movements WHERE store_id = $1 AND reason = 'import'", [fixture.store.id], on: app.database)[0][0]
        let prices = try await sql("SELECT count(*) FROM store_prices WHERE store_id = $1", [fixture.store.id], on: app.database)[0][0]
        return (onHand, ledger, prices)
    }

    @Test("two clicks at once start one import; it commits with its counts, the ledger written once")
    func startTwiceStartsOnce() async throws {
        try await withApp { app in
            let fixture = try await Self.fixture(app)
            let id = try await Self.previewed(app, fixture)
            let path = "/v1/stores/\(fixture.store.id)/catalogue-imports/\(id)/start"
            let replies = try await SeparateConnections.race(
                [.init(path: path, token: fixture.manager.token), .init(path: path, token: fixture.manager.token)], port: app.port!)
            #expect(replies.map(\.status.code).sorted() == [202, 409])
            #expect(replies.contains { $0.errorCode == "import_started" })

            let done = try await app.waitForImport(id, store: fixture.store.id, token: fixture.manager.token, "committed") {
                $0["status"].string == "committed"
            }
            #expect(done["changed"].int == 3)
            #expect(done["progress"]["done"].int == 3)
            #expect(done["progress"]["total"].int == 3)
            #expect(done["finishedAt"].string != nil)
            let written = try await Self.written(app, fixture)
            #expect(written.onHand == ["20", "30", "40"])
            #expect(written.ledger == "3")
            #expect(written.prices == "1")

            // Too late to cancel: the commit won, and its rows are there.
            let cancel = try await app.request(.post, "/v1/stores/\(fixture.store.id)/catalogue-imports/\(id)/cancel", token: fixture.manager.token)
            #expect(cancel.status == .conflict)
            #expect(cancel.errorCode == "import_committed")
            #expect(try await Self.written(app, fixture).onHand == ["20", "30", "40"])
        }
    }

    @Test("cancelled while it runs (held behind a lock on the store's stock): nothing is written")
    func cancelWhileRunning() async throws {
        try await withApp { app in
            let fixture = try await Self.fixture(app)
            let id = try await Self.previewed(app, fixture)
            let store = fixture.store.id
            // Trading holds the store's stock: the import waits for it, in its transaction.
            let till = try await HeldTransaction.begin(on: app.database, "SELECT 1 FROM stock WHERE store_id = '\(store)' FOR UPDATE")
            let start = try await app.request(.post, "/v1/stores/\(store)/catalogue-imports/\(id)/start", token: fixture.manager.token)
            #expect(start.status == .accepted)
            try await Self.waitUntilWorkerWaitsForALock(app, id)
            let running = try await app.importNow(id, store: store, token: fixture.manager.token)
            #expect(running["status"].string == "running")
            #expect(running["progress"]["done"].int == 3)
            #expect(running["progress"]["total"].int == 3)

            let cancel = try await app.request(.post, "/v1/stores/\(store)/catalogue-imports/\(id)/cancel", token: fixture.manager.token)
            #expect(cancel.status == .ok, "\(cancel.text)")
            #expect(cancel.json["status"].string == "cancelled")
            try await till.commit()

            let ended = try await app.waitForImport(id, store: store, token: fixture.manager.token, "rolled back") {
                $0["finishedAt"].string != nil
            }
            #expect(ended["status"].string == "cancelled")
            let written = try await Self.written(app, fixture)
            #expect(written.onHand == ["5", "5", "5"])
            #expect(written.ledger == "0")
            #expect(written.prices == "0")
        }
    }

    @Test("a worker whose backend is ended writes nothing and reads as failed")
    func workerKilled() async throws {
        try await withApp { app in
            let fixture = try await Self.fixture(app)
            let id = try await Self.previewed(app, fixture)
            let store = fixture.store.id
            let till = try await HeldTransaction.begin(on: app.database, "SELECT 1 FROM stock WHERE store_id = '\(store)' FOR UPDATE")
            #expect(
                try await app.request(.post, "/v1/stores/\(store)/catalogue-imports/\(id)/start", token: fixture.manager.token).status == .accepted)
            try await Self.waitUntilWorkerWaitsForALock(app, id)
            let ended = try await sql("SELECT pg_terminate_backend(backend_pid) FROM catalogue_imports WHERE id = $1", [id], on: app.database)
            #expect(ended[0][0] == "t")
            try await till.commit()

            let failed = try await app.waitForImport(id, store: store, token: fixture.manager.token, "failed") { $0["status"].string == "failed" }
            #expect(failed["failure"].string?.contains("nothing was written") == true)
            let written = try await Self.written(app, fixture)
            #expect(written.onHand == ["5", "5", "5"])
            #expect(written.ledger == "0")
        }
    }

    @Test("an import left running by an instance that stopped reads, and is written back, as failed")
    func lostWorkerReadsAsFailed() async throws {
        try await withApp { app in
            let fixture = try await Self.fixture(app)
            let id = try await Self.previewed(app, fixture)
            // As a worker leaves it when its instance stops: running, its transaction gone (this
            // statement's own, committed and over).
            try await sql(
                """
                UPDATE catalogue_imports SET status = 'running', backend_pid = pg_backend_pid(), backend_start = now(),
                       worker_xid = pg_current_xact_id()
                 WHERE id = $1
                """, [id], on: app.database)
            let read = try await app.importNow(id, store: fixture.store.id, token: fixture.manager.token)
            #expect(read["status"].string == "failed")
            #expect(read["failure"].string == "The service stopped during the import; nothing was written.")
            #expect(try await sql("SELECT status FROM catalogue_imports WHERE id = $1", [id], on: app.database)[0][0] == "failed")
        }
    }

    @Test("a row refused when it runs (the stock was reserved since the preview) fails the import with that row; nothing is written")
    func refusedAtStart() async throws {
        try await withApp { app in
            let fixture = try await Self.fixture(app)
            let id = try await Self.previewed(app, fixture)
            let store = fixture.store.id
            try await sql(
                "UPDATE stock SET on_hand = 50, reserved = 35 WHERE store_id = $1 AND product_id = (SELECT id FROM products WHERE sku = 'QC-2')",
                [store], on: app.database)
            #expect(
                try await app.request(.post, "/v1/stores/\(store)/catalogue-imports/\(id)/start", token: fixture.manager.token).status == .accepted)
            let failed = try await app.waitForImport(id, store: store, token: fixture.manager.token, "failed") { $0["status"].string == "failed" }
            #expect(failed["refusedRows"].array.map { $0["line"].int } == [3])
            #expect(failed["refusedRows"][0]["message"].string?.contains("reserved") == true)
            #expect(try await Self.written(app, fixture).onHand == ["5", "50", "5"])
        }
    }

    /// Waits until the import's worker is blocked on a lock (the stock the test holds).
    static func waitUntilWorkerWaitsForALock(_ app: TestApp, _ id: String) async throws {
        for _ in 0..<600 {
            let waiting = try await sql(
                """
                SELECT a.wait_event_type FROM catalogue_imports i JOIN pg_stat_activity a ON a.pid = i.backend_pid
                 WHERE i.id = $1 AND i.status = 'running'
                """, [id], on: app.database)
            if waiting.first?[0] == "Lock" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("the import's worker never waited for the stock")
    }
}
