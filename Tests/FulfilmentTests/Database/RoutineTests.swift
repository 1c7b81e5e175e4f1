import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// `sql/routines/` holds the one live definition of every function, view and trigger: a reader who
/// opens `sql/routines/place_order.sql` reads the body that runs.
@Suite("Every function, view and trigger has one file in sql/routines, and that file is what runs")
struct RoutineTests {
    /// The newest numbered migration when the routines landed: later ones change tables and data
    /// only, and a function, view or trigger changes in its routine file.
    static let routinesLandedAfter = 26

    static var definition: Regex<AnyRegexOutput> {
        try! Regex(
            #"^[ \t]*CREATE[ \t]+(?:OR[ \t]+REPLACE[ \t]+)?(?:CONSTRAINT[ \t]+|MATERIALIZED[ \t]+)?(FUNCTION|VIEW|TRIGGER)[ \t]+(?:public\.)?(\w+)"#
        ).ignoresCase().anchorsMatchLineEndings()
    }

    /// What a file defines: (kind, name) of every CREATE FUNCTION, VIEW or TRIGGER at a line's start.
    static func definitions(in sql: String) -> [Pair] {
        sql.matches(of: definition).map { match in
            Pair(kind: String(match.output[1].substring ?? "").lowercased(), name: String(match.output[2].substring ?? ""))
        }
    }

    struct Pair: Hashable, Comparable, CustomStringConvertible {
        var kind: String
        var name: String
        static func < (a: Pair, b: Pair) -> Bool { (a.kind, a.name) < (b.kind, b.name) }
        var description: String { "\(kind) \(name)" }
    }

    static func expected(_ routine: Migration) -> Pair {
        let name = String(routine.routineName.prefix { $0 != "." })
        switch routine.kind {
        case .view: return Pair(kind: "view", name: name)
        case .trigger: return Pair(kind: "trigger", name: name)
        default: return Pair(kind: "function", name: name)
        }
    }

    /// Every function, view and trigger in `public` that this project made (not an extension's),
    /// with PostgreSQL's own rendering of its definition.
    static let inventory = """
        SELECT 'function', p.proname, pg_get_functiondef(p.oid) FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
        UNION ALL
        SELECT 'view', c.relname, pg_get_viewdef(c.oid) FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('v', 'm')
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
        UNION ALL
        SELECT 'trigger', t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal
        ORDER BY 1, 2, 3
        """

    @Test("each routine file defines one thing, named as its file, with a definition that can be applied again")
    func oneDefinitionPerFile() throws {
        let routines = try TestDatabases.migrations.filter(\.isRoutine)
        #expect(routines.count > 30, "sql/routines/ was not found")
        for routine in routines {
            #expect(Self.definitions(in: routine.sql) == [Self.expected(routine)], "\(routine.name).sql")
            // A second application replaces: CREATE OR REPLACE, or (a constraint trigger) a DROP first.
            let replaces =
                routine.sql.range(of: "CREATE OR REPLACE", options: .caseInsensitive) != nil
                || routine.sql.range(of: "DROP TRIGGER IF EXISTS \(Self.expected(routine).name) ON", options: .caseInsensitive) != nil
            #expect(replaces, "\(routine.name).sql must replace what it defines")
        }
    }

    @Test("no numbered migration after the routines landed defines a function, view or trigger")
    func noDefinitionsInLaterMigrations() throws {
        let later = try TestDatabases.migrations.filter { !$0.isRoutine && $0.version > Self.routinesLandedAfter }
        for migration in later {
            #expect(Self.definitions(in: migration.sql).isEmpty, "\(migration.name).sql: put it in sql/routines/ instead")
        }
    }

    @Test("the database's functions, views and triggers are the routine files', one each, and applying the files changes none")
    func databaseMatchesFiles() async throws {
        let routines = try TestDatabases.migrations.filter(\.isRoutine)
        try await withTestDatabase { db in
            let (before, after) = try await Migrator.offloaded {
                let connection = try LibPQConnection(db)
                try connection.execute("BEGIN; SET LOCAL client_min_messages = warning")
                let before = try connection.execute(Self.inventory)
                for routine in routines { try connection.execute(routine.sql) }
                let after = try connection.execute(Self.inventory)
                try connection.execute("ROLLBACK")
                return (before, after)
            }
            let live = before.map { Pair(kind: $0[0]!, name: $0[1]!) }.sorted()
            #expect(live == routines.map(Self.expected).sorted())
            let changed = zip(before, after).filter { $0 != $1 }.map { "\($0.0[0]!) \($0.0[1]!)" }
            #expect(before.count == after.count && changed.isEmpty, "applying the files changed: \(changed)")
        }
    }
}
