import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A database built fresh and one upgraded from the schema as it stood when the routines landed
/// (migrations 001 to 026, applied the old way: numbered files only) must come out the same. If
/// they differ, a routine file and the migrations disagree, or a migration relies on an order of
/// application only one of the two paths has.
@Suite("A fresh database and one upgraded from before sql/routines come out the same")
struct SchemaUpgradeTests {
    let logger = Logger(label: "test")

    @Test("pg_dump --schema-only of both, compared")
    func freshEqualsUpgraded() async throws {
        let all = try TestDatabases.migrations
        let before = all.filter { !$0.isRoutine && $0.version <= RoutineTests.routinesLandedAfter }
        #expect(before.count == 23 && before.last?.version == 26)
        try await withTestDatabase(empty: true) { fresh in
            try await withTestDatabase(empty: true) { upgraded in
                try await Migrator(connection: fresh, migrations: all).migrate(logger: logger)
                try await Migrator(connection: upgraded, migrations: before).migrate(logger: logger)
                #expect(try await sql("SELECT to_regclass('schema_routines') IS NULL", on: upgraded) == [["t"]])
                let applied = try await Migrator(connection: upgraded, migrations: all).migrate(logger: logger)
                #expect(applied == all.filter { $0.isRoutine || $0.version > RoutineTests.routinesLandedAfter }.map(\.name))

                let (a, b) = (try await Self.schema(of: fresh), try await Self.schema(of: upgraded))
                #expect(a.count > 1000, "pg_dump wrote too little to compare: \(a.prefix(5))")
                let (linesA, linesB) = (Set(a), Set(b))
                let onlyFresh = a.filter { !linesB.contains($0) }.prefix(10)
                let onlyUpgraded = b.filter { !linesA.contains($0) }.prefix(10)
                let same = a == b
                #expect(same, "fresh only: \(Array(onlyFresh)); upgraded only: \(Array(onlyUpgraded))")

                let bookkeeping = """
                    SELECT string_agg(version || ' ' || name || ' ' || checksum, ', ' ORDER BY version) FROM schema_migrations
                    UNION ALL
                    SELECT string_agg(name || ' ' || checksum, ', ' ORDER BY name) FROM schema_routines
                    """
                #expect(try await sql(bookkeeping, on: fresh) == (try await sql(bookkeeping, on: upgraded)))
            }
        }
    }

    /// `pg_dump --schema-only` as lines, less what differs between two dumps of one schema:
    /// comments, SET lines, blank lines and the `\restrict` key a dump is made with.
    static func schema(of database: ConnectionInfo) async throws -> [String] {
        let dump = try await Migrator.offloaded {
            guard let bin = EmbeddedPostgres.findBinDirectory() else { throw EmbeddedPostgres.Failure.notInstalled }
            return try EmbeddedPostgres.execute(
                bin.appendingPathComponent("pg_dump").path,
                ["--schema-only", "--no-owner", "--no-privileges", "--dbname=\(Backup.conninfo(database))"],
                environment: database.password.map { ["PGPASSWORD": $0] } ?? [:])
        }
        return dump.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { line in
            !line.hasPrefix("--") && !line.hasPrefix("SET ") && !line.hasPrefix("SELECT pg_catalog.set_config")
                && !line.hasPrefix("\\restrict") && !line.hasPrefix("\\unrestrict")
                && !line.trimmingCharacters(in: .whitespaces).isEmpty
        }
    }
}
