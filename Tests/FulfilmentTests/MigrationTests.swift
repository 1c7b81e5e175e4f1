import Foundation
import Logging
import Testing

@testable import Fulfilment

@Suite("Migrations are applied in order, once, and never edited")
struct MigrationTests {
    let logger = Logger(label: "test")

    func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, sql) in files {
            try sql.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url
    }

    @Test("files apply in numeric order, each recorded with its checksum")
    func ordering() async throws {
        let dir = try folder([
            "10_add_price.sql": "ALTER TABLE widget ADD COLUMN price int; INSERT INTO log VALUES ('10');",
            "2_widget.sql": "CREATE TABLE widget (id int); INSERT INTO log VALUES ('2');",
            "1_log.sql": "CREATE TABLE log (step text, at timestamptz DEFAULT clock_timestamp());",
        ])
        let migrations = try Migration.load(from: dir)
        #expect(migrations.map(\.version) == [1, 2, 10])
        try await withTestDatabase(empty: true) { db in
            let applied = try await Migrator(connection: db, migrations: migrations).migrate(logger: logger)
            #expect(applied == ["1_log", "2_widget", "10_add_price"])
            let steps = try await sql("SELECT step FROM log ORDER BY at", on: db).map { $0[0] }
            #expect(steps == ["2", "10"])
            let recorded = try await sql("SELECT version, checksum FROM schema_migrations ORDER BY version", on: db)
            #expect(recorded.map { $0[0] } == ["1", "2", "10"])
            #expect(recorded[1][1] == migrations[1].checksum)
            let again = try await Migrator(connection: db, migrations: migrations).migrate(logger: logger)
            #expect(again.isEmpty)
        }
    }

    @Test("a landed migration whose file changed stops start-up, naming the file")
    func checksumMismatch() async throws {
        let dir = try folder(["001_a.sql": "CREATE TABLE a (id int);", "002_b.sql": "CREATE TABLE b (id int);"])
        try await withTestDatabase(empty: true) { db in
            try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            try "CREATE TABLE a (id bigint);".write(to: dir.appendingPathComponent("001_a.sql"), atomically: true, encoding: .utf8)
            try "CREATE TABLE c (id int);".write(to: dir.appendingPathComponent("003_c.sql"), atomically: true, encoding: .utf8)
            let edited = try Migration.load(from: dir)
            let error = await #expect(throws: MigrationError.self) {
                try await Migrator(connection: db, migrations: edited).migrate(logger: logger)
            }
            #expect(error == .checksumMismatch(file: "001_a"))
            #expect(error?.description.contains("001_a.sql") == true)
            // Nothing after the refusal was applied.
            let tables = try await sql("SELECT count(*) FROM pg_tables WHERE tablename = 'c'", on: db)
            #expect(tables[0][0] == "0")
        }
    }

    @Test("a failing migration is rolled back whole and named")
    func failingMigration() async throws {
        let dir = try folder(["001_ok.sql": "CREATE TABLE ok (id int);", "002_bad.sql": "CREATE TABLE half (id int); SELECT * FROM missing_table;"])
        try await withTestDatabase(empty: true) { db in
            let error = await #expect(throws: MigrationError.self) {
                try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            }
            guard case .failed(let file, _) = error else { Issue.record("expected .failed, got \(String(describing: error))"); return }
            #expect(file == "002_bad")
            let half = try await sql("SELECT to_regclass('half') IS NULL", on: db)
            #expect(half[0][0] == "t")
            let recorded = try await sql("SELECT version FROM schema_migrations", on: db)
            #expect(recorded.map { $0[0] } == ["1"])
        }
    }

    @Test("two instances migrating at once apply each file exactly once")
    func concurrent() async throws {
        let real = try TestDatabases.migrations
        try await withTestDatabase(empty: true) { db in
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<4 {
                    group.addTask { try await Migrator(connection: db, migrations: real).migrate(logger: logger) }
                }
                return try await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            #expect(results.flatMap { $0 }.sorted() == real.map(\.name).sorted())
            let count = try await sql("SELECT count(*) FROM schema_migrations", on: db)
            #expect(count[0][0] == String(real.count))
        }
    }

    @Test("the first start on an empty database logs no warning: the background services wait for the migrations")
    func firstStartIsQuiet() async throws {
        try await withTestDatabase(empty: true) { db in
            let log = LogCapture()
            try await withApp(database: db, logHandler: log, configure: { $0.webhookDispatch.pollInterval = .milliseconds(100) }) { app in
                // The bus and the dispatcher have done their work once the store's event is numbered.
                let store = try await app.createStore()
                _ = try await app.placeOrder(store: store)
                try await waitUntilNumbered(app, store: store)
                try await Task.sleep(for: .milliseconds(300))  // a few dispatcher polls too
                // Read before the shutdown, which has complaints of its own (cancelled channels).
                let complaints = log.text.split(separator: "\n").filter { $0.hasPrefix("warning") || $0.hasPrefix("error") }
                #expect(complaints.isEmpty, "\(complaints)")
            }
        }
    }

    @Test("two files with the same number are refused")
    func duplicateNumbers() throws {
        let dir = try folder(["001_a.sql": "SELECT 1;", "001_b.sql": "SELECT 2;"])
        #expect(throws: MigrationError.duplicateVersion("001_a", "001_b")) { try Migration.load(from: dir) }
    }
}
