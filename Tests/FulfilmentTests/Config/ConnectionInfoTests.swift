import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A database is chosen the way psql chooses it")
struct ConnectionInfoTests {
    @Test("a postgresql:// URI gives host, port, user, password and database")
    func uri() throws {
        let info = try ConnectionInfo.parse("postgresql://shop:s3cret@db.example.com:6543/orders?sslmode=require")
        #expect(info.host == "db.example.com")
        #expect(info.port == 6543)
        #expect(info.user == "shop")
        #expect(info.password == "s3cret")
        #expect(info.database == "orders")
        #expect(info.sslMode == "require")
        #expect(info.unixSocketPath == nil)
        #expect(!info.redacted.contains("s3cret"))
    }

    @Test("a key=value string works too")
    func keyValue() throws {
        let info = try ConnectionInfo.parse("host=10.0.0.5 port=5433 user=picker dbname=store sslmode=disable")
        #expect(info.host == "10.0.0.5")
        #expect(info.port == 5433)
        #expect(info.user == "picker")
        #expect(info.database == "store")
        #expect(info.sslMode == "disable")
    }

    @Test("a host that is a folder means a unix socket in it")
    func socketHost() throws {
        let info = try ConnectionInfo.parse("host=/var/run/postgresql port=5432 dbname=fulfilment user=app")
        #expect(info.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432")
        let uri = try ConnectionInfo.parse("postgresql://app@%2Ftmp%2Fpg/fulfilment")
        #expect(uri.unixSocketPath == "/tmp/pg/.s.PGSQL.5432")
        #expect(uri.database == "fulfilment")
    }

    @Test("a string libpq rejects is an error quoting libpq")
    func rejected() {
        #expect(throws: ConnectionInfo.ParseError.self) { try ConnectionInfo.parse("host=a bogus_keyword=1") }
        do {
            _ = try ConnectionInfo.parse("postgresql://[::1")
            Issue.record("a broken URI was accepted")
        } catch {
            #expect(error.message.contains("IPv6") || error.message.contains("URI"))
        }
    }

    @Test("libpq's lists name a primary and its standbys: one port for all or one each, read-write unless said (issue 29)")
    func multiHost() throws {
        let url = try ConnectionInfo.parse("postgres://u:secret@h1:5501,h2:5502/db?target_session_attrs=read-write&connect_timeout=3")
        #expect(url.endpoints.map(\.description) == ["h1:5501", "h2:5502"])
        #expect(url.isMultiHost && url.sessionTarget == "read-write" && url.options["connect_timeout"] == "3")
        #expect(url.redacted == "u@h1:5501,h2:5502/db" && !url.description.contains("secret"))
        let onePort = try ConnectionInfo.parse("host=a,b,c port=6000 dbname=db")
        #expect(onePort.endpoints.map(\.description) == ["a:6000", "b:6000", "c:6000"])
        #expect(onePort.sessionTarget == "read-write")  // several servers, nothing said: the primary
        #expect(try ConnectionInfo.parse("host=a,b dbname=db target_session_attrs=any").sessionTarget == "any")
        let second = url.only(url.endpoints[1])
        #expect(second.host == "h2" && second.port == 5502 && !second.isMultiHost && second.options["target_session_attrs"] == nil)
        let single = try ConnectionInfo.parse("postgresql://db.example:5433/orders")
        #expect(!single.isMultiHost && single.sessionTarget == "any" && single.endpoints.map(\.description) == ["db.example:5433"])
        // An IPv6 address has colons, not commas: one host.
        #expect(try ConnectionInfo.parse("postgresql://[::1]:5432/db").endpoints.count == 1)
        for (conninfo, reason) in [
            ("host=a,b,c port=5432,5433 dbname=db", "could not match 2 port numbers to 3 hosts"),
            ("host=a,b port=5432,99999 dbname=db", "invalid port number"),
            ("host=a,b dbname=db target_session_attrs=master", "invalid target_session_attrs"),
        ] {
            do {
                _ = try ConnectionInfo.parse(conninfo)
                Issue.record("\(conninfo) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(conninfo): \(error)")
            }
        }
    }

    @Test("`fulfilment serve` given lists that do not match exits non-zero at start-up with libpq's reason, and no crash")
    func serveRefusesMismatchedLists() async throws {
        let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
        _ = try PickupKeys.generate(in: keys)
        defer { try? FileManager.default.removeItem(at: keys) }
        let serve = ["serve", "--port", String(try ServiceProcess.freePort()), "--keys-dir", keys.path]
        for (arguments, environment) in [
            (serve + ["--database-url", "host=db1.example,db2.example,db3.example port=1,2 dbname=fulfilment"], [:]),
            (serve, ["DATABASE_URL": "host=db1.example,db2.example dbname=fulfilment target_session_attrs=leader"]),
        ] {
            let (status, output) = try await ServiceProcess.run(arguments, environment: environment)
            #expect(status != 0, "\(output)")
            #expect(output.contains("could not match") || output.contains("invalid target_session_attrs"), "\(output)")
            for crash in ["Fatal error", "Stack trace", "Backtrace", "Thread 0", "Crashed"] {
                #expect(!output.contains(crash), "\(output)")
            }
        }
    }

    @Test("unset keywords fall back to libpq's defaults")
    func defaults() throws {
        let info = try ConnectionInfo.parse("dbname=only")
        #expect(info.database == "only")
        #expect(info.port > 0)
        #expect(info.options["user"] != nil)
    }
}
