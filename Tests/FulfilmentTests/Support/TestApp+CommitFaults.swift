import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A commit that fails, on demand, for every table of a test's database (issue 42).
///
/// Each table gets a `DEFERRABLE INITIALLY DEFERRED` constraint trigger on every row it inserts,
/// updates or deletes. Deferred, it runs when the transaction commits, after the statement's
/// CommandComplete has reached the service: exactly where a full disk or a deferred constraint
/// refuses a commit. While the switch is on it raises `disk_full` (53100), the SQLSTATE a commit
/// refused for want of space carries, so the answer the service gives is the one a store with a
/// full disk would see.
///
/// The switch is read when the trigger runs, at commit, in a statement of its own: under READ
/// COMMITTED (the only isolation the service uses) a transaction begun before the switch was
/// turned on and committing after it fails too: once `turnOn()` returns, nothing the service
/// does in the background commits either.
///
/// One row is not a change: a session's `last_used_at`, touched on every authenticated request
/// (`session_caller`). Anything else a session does (an insert at sign-in, `ended_at` at sign-out,
/// a deletion) fails like any other row, so signing out cannot slip past the switch.
struct CommitFault: Sendable {
    let database: ConnectionInfo
    /// The tables whose rows the snapshot compares: every table but the switch's own.
    let tables: [String]

    /// The switch's table: a row in it turns the fault on.
    static let switchTable = "commit_fault_switch"

    /// Puts the trigger on every table of schema `public` (the switch's own excepted) and
    /// returns the switch, off.
    static func install(on database: ConnectionInfo) async throws -> CommitFault {
        _ = try await sql("CREATE TABLE \(switchTable) (turned_on_at timestamptz NOT NULL DEFAULT now())", on: database)
        _ = try await sql(
            """
            CREATE FUNCTION commit_fault() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_TABLE_NAME = 'sessions' AND TG_OP = 'UPDATE'
                   AND to_jsonb(OLD) - 'last_used_at' = to_jsonb(NEW) - 'last_used_at' THEN
                    RETURN NULL;
                END IF;
                IF EXISTS (SELECT 1 FROM \(switchTable)) THEN
                    RAISE EXCEPTION 'commit refused by the test''s fault on %', TG_TABLE_NAME USING ERRCODE = 'disk_full';
                END IF;
                RETURN NULL;
            END $$
            """, on: database)
        let tables = try await sql(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> $1
            ORDER BY 1
            """, [switchTable], on: database
        ).compactMap { $0[0] }
        for table in tables {
            _ = try await sql(
                """
                CREATE CONSTRAINT TRIGGER commit_fault AFTER INSERT OR UPDATE OR DELETE ON \(quoted(table))
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_fault()
                """, on: database)
        }
        return CommitFault(database: database, tables: tables)
    }

    /// From now on every commit that changed a row fails.
    func turnOn() async throws {
        _ = try await sql("INSERT INTO \(Self.switchTable) DEFAULT VALUES", on: database)
    }

    func turnOff() async throws {
        _ = try await sql("DELETE FROM \(Self.switchTable)", on: database)
    }

    /// Every table's rows as one digest per table, read in one statement (one snapshot).
    /// `sessions` without `last_used_at`, which the service touches as it reads (see above).
    func snapshot() async throws -> [String: String] {
        let digests = tables.map { table in
            let row = table == "sessions" ? "(to_jsonb(t) - 'last_used_at')::text" : "t::text"
            return "SELECT '\(table)', md5(coalesce(string_agg(\(row), '|' ORDER BY \(row)), '')) FROM \(Self.quoted(table)) t"
        }
        var snapshot: [String: String] = [:]
        for row in try await sql(digests.joined(separator: "\nUNION ALL "), on: database) {
            if let table = row[0] { snapshot[table] = row[1] ?? "" }
        }
        return snapshot
    }

    /// The tables whose rows differ between two snapshots.
    static func changed(_ before: [String: String], _ after: [String: String]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// Waits (a few seconds at most) until every committed event is numbered. Numbering runs in
    /// the background just after a commit; with the switch on it would fail and be tried again
    /// later, so the events written before a faulted request are numbered before it is sent.
    func waitForEventsNumbered() async throws {
        for _ in 0..<250 {
            if try await sql("SELECT count(*) FROM events WHERE sequence IS NULL", on: database)[0][0] == "0" { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A table name as an SQL identifier (the names come from the catalogue, never from input).
    private static func quoted(_ table: String) -> String {
        "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension TestApp {
    /// Installs the commit fault (see ``CommitFault``) on this app's database; the switch is off.
    func installCommitFault() async throws -> CommitFault {
        try await CommitFault.install(on: database)
    }
}
