import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Migrations are applied in order, once, and never edited")
struct MigrationTests {
    let logger = Logger(label: "test")

    /// A folder holding `files` (a name may be `routines/x.sql`).
    func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("routines"), withIntermediateDirectories: true)
        for (name, sql) in files {
            try write(sql, to: name, in: url)
        }
        return url
    }

    func write(_ sql: String, to name: String, in folder: URL) throws {
        try sql.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
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
            guard case .failed(let file, _) = error else {
                Issue.record("expected .failed, got \(String(describing: error))")
                return
            }
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
            let count = try await sql("SELECT (SELECT count(*) FROM schema_migrations) + (SELECT count(*) FROM schema_routines)", on: db)
            #expect(count[0][0] == String(real.count))
        }
    }

    @Test("the first start on an empty database logs no warning: the background services wait for the migrations")
    func firstStartIsQuiet() async throws {
        try await withWebhookReceiver { receiver in
            try await withTestDatabase(empty: true) { db in
                let log = LogCapture()
                try await withApp(database: db, logHandler: log, configure: { $0.quickWebhooks() }) { app in
                    // The bus and the dispatcher have done their work once the store's event is numbered.
                    let store = try await app.createStore()
                    _ = try await app.placeOrder(store: store)
                    try await waitUntilNumbered(app, store: store)
                    // A few dispatcher polls too: seen to have run, not slept for.
                    try await app.waitForTwoDispatcherRounds(at: receiver)
                    // Read before the shutdown, which has complaints of its own (cancelled channels).
                    let complaints = log.text.split(separator: "\n").filter { $0.hasPrefix("warning") || $0.hasPrefix("error") }
                    #expect(complaints.isEmpty, "\(complaints)")
                }
            }
        }
    }

    @Test("two files with the same number are refused")
    func duplicateNumbers() throws {
        let dir = try folder(["001_a.sql": "SELECT 1;", "001_b.sql": "SELECT 2;"])
        #expect(throws: MigrationError.duplicateVersion("001_a", "001_b")) { try Migration.load(from: dir) }
    }

    // MARK: Routines: sql/routines/, one function, view or trigger a file, applied again when it changes.

    /// A table, a function over it, a view of the function and a trigger calling another function.
    func routineFolder() throws -> URL {
        try folder([
            "001_t.sql": "CREATE TABLE t (id int); CREATE TABLE t_log (id int);",
            "routines/t_count.sql": "CREATE OR REPLACE FUNCTION t_count() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM t $$;",
            "routines/t_logged.sql": """
            CREATE OR REPLACE FUNCTION t_logged() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO t_log VALUES (NEW.id); RETURN NEW; END $$;
            """,
            "routines/t_counted.view.sql": "CREATE OR REPLACE VIEW t_counted AS SELECT t_count() AS n;",
            "routines/t_log.trigger.sql": "CREATE OR REPLACE TRIGGER t_log AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION t_logged();",
        ])
    }

    @Test("routines load after the numbered files: functions, views, triggers, each by name, at the newest number")
    func routineOrder() throws {
        let loaded = try Migration.load(from: try routineFolder())
        #expect(loaded.map(\.name) == ["001_t", "routines/t_count", "routines/t_logged", "routines/t_counted.view", "routines/t_log.trigger"])
        #expect(loaded.map(\.kind) == [.numbered, .function, .function, .view, .trigger])
        #expect(loaded.map(\.version) == [1, 1, 1, 1, 1])
    }

    @Test("routines apply after the migrations, then only when their file changed or what they define is gone")
    func routinesApplyWhenChanged() async throws {
        let dir = try routineFolder()
        try await withTestDatabase(empty: true) { db in
            let first = try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            #expect(first == ["001_t", "routines/t_count", "routines/t_logged", "routines/t_counted.view", "routines/t_log.trigger"])
            _ = try await sql("INSERT INTO t VALUES (1), (2)", on: db)
            #expect(try await sql("SELECT n FROM t_counted", on: db) == [["2"]])
            #expect(try await sql("SELECT count(*) FROM t_log", on: db) == [["2"]])
            let recorded = try await sql("SELECT name FROM schema_routines ORDER BY name COLLATE \"C\"", on: db)
            #expect(recorded.map { $0[0] } == ["t_count", "t_counted.view", "t_log.trigger", "t_logged"])

            #expect(try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger).isEmpty)

            try write(
                "CREATE OR REPLACE FUNCTION t_count() RETURNS bigint LANGUAGE sql AS $$ SELECT 10 * count(*) FROM t $$;",
                to: "routines/t_count.sql", in: dir)
            let changed = try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            #expect(changed == ["routines/t_count"])
            #expect(try await sql("SELECT n FROM t_counted", on: db) == [["20"]])
            let checksum = try Migration.load(from: dir).first { $0.name == "routines/t_count" }?.checksum
            #expect(try await sql("SELECT checksum FROM schema_routines WHERE name = 't_count'", on: db) == [[checksum]])

            // A migration that drops a function (CASCADE: its view too) is followed by those two again.
            try write("DROP FUNCTION t_count() CASCADE;", to: "002_drop.sql", in: dir)
            let after = try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            #expect(after == ["002_drop", "routines/t_count", "routines/t_counted.view"])
            #expect(try await sql("SELECT n FROM t_counted", on: db) == [["20"]])
            // So is a trigger dropped by hand, its file unchanged.
            _ = try await sql("DROP TRIGGER t_log ON t", on: db)
            let trigger = try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            #expect(trigger == ["routines/t_log.trigger"])
        }
    }

    @Test("a routine needing one applied after it (a view on a later view, a BEGIN ATOMIC body) is applied in a later pass")
    func routineDependencies() async throws {
        let dir = try folder([
            "001_t.sql": "CREATE TABLE t (id int);",
            "routines/a_outer.sql": "CREATE OR REPLACE FUNCTION a_outer() RETURNS bigint LANGUAGE sql BEGIN ATOMIC SELECT b_inner() + 1; END;",
            "routines/b_inner.sql": "CREATE OR REPLACE FUNCTION b_inner() RETURNS bigint LANGUAGE sql BEGIN ATOMIC SELECT count(*) FROM t; END;",
            "routines/a_top.view.sql": "CREATE OR REPLACE VIEW a_top AS SELECT n + 1 AS n FROM b_base;",
            "routines/b_base.view.sql": "CREATE OR REPLACE VIEW b_base AS SELECT a_outer() AS n;",
        ])
        try await withTestDatabase(empty: true) { db in
            let applied = try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            #expect(applied.count == 5)
            #expect(try await sql("SELECT n FROM a_top", on: db) == [["2"]])
        }
    }

    @Test(
        "a failing routine rolls back every routine of its run and names its file; the migrations before it stay",
        arguments: [
            ("CREATE OR REPLACE FUNCTION t_broken() RETURNS bigint LANGUAGE sql AS $$ SELECT 1 $$; SELECT * FROM missing_table;", "missing_table"),
            // A PL/pgSQL body is checked as it is made, not at its first call.
            ("CREATE OR REPLACE FUNCTION t_broken() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN 1 END $$;", "syntax error"),
        ])
    func failingRoutine(_ broken: String, _ complaint: String) async throws {
        let dir = try routineFolder()
        try write(broken, to: "routines/t_broken.sql", in: dir)
        try await withTestDatabase(empty: true) { db in
            let error = await #expect(throws: MigrationError.self) {
                try await Migrator(connection: db, migrations: try Migration.load(from: dir)).migrate(logger: logger)
            }
            guard case .failed(let file, let message) = error else {
                Issue.record("expected .failed, got \(String(describing: error))")
                return
            }
            #expect(file == "routines/t_broken")
            #expect(message.contains(complaint), "\(message)")
            let migrations = try await sql("SELECT version FROM schema_migrations", on: db)
            #expect(migrations == [["1"]])
            let routines = try await sql("SELECT count(*) FROM schema_routines", on: db)
            #expect(routines == [["0"]])
            let functions = try await sql("SELECT count(*) FROM pg_proc WHERE proname IN ('t_count', 't_broken')", on: db)
            #expect(functions == [["0"]])
        }
    }

    @Test(
        "a routine file whose name is not name.sql, name.view.sql or name.trigger.sql is refused",
        arguments: [
            "Place-Order.sql", "orders.table.sql", ".view.sql", "a.b.view.sql",
        ])
    func badRoutineName(_ name: String) throws {
        let dir = try folder(["001_a.sql": "SELECT 1;", "routines/\(name)": "SELECT 1;"])
        #expect(throws: MigrationError.badFileName("routines/\(name)")) { try Migration.load(from: dir) }
    }
}
