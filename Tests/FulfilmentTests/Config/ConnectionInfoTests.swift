import Foundation
import Testing

@testable import Fulfilment

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

    @Test("several hosts, addresses or ports (libpq's failover lists) are refused, in both forms, with the reason")
    func multiHostRefused() {
        for conninfo in [
            "postgresql://a,b/db", "postgresql://a:5432,b:5433/db", "postgresql://db.example.com:5432,5433/orders",
            "host=a,b dbname=db", "hostaddr=10.0.0.1,10.0.0.2 dbname=db", "host=db.example.com port=5432,5433",
        ] {
            do {
                _ = try ConnectionInfo.parse(conninfo)
                Issue.record("\(conninfo) was accepted")
            } catch {
                #expect(error.description.contains("several servers"), "\(conninfo): \(error)")
                #expect(error.description.contains("no failover"), "\(conninfo): \(error)")
            }
        }
        // One host (an IPv6 address has colons, not commas) is fine.
        #expect(throws: Never.self) { try ConnectionInfo.parse("postgresql://[::1]:5432/db") }
        #expect(throws: Never.self) { try ConnectionInfo.parse("hostaddr=10.0.0.1 dbname=db") }
    }

    @Test("`fulfilment serve` given several hosts exits non-zero at start-up with the reason, and no crash")
    func serveRefusesMultiHost() async throws {
        let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
        _ = try PickupKeys.generate(in: keys)
        defer { try? FileManager.default.removeItem(at: keys) }
        let serve = ["serve", "--port", String(try ServiceProcess.freePort()), "--keys-dir", keys.path]
        for (arguments, environment) in [
            (serve + ["--database-url", "postgresql://db1.example,db2.example/fulfilment"], [:]),
            (serve, ["DATABASE_URL": "host=db1.example,db2.example dbname=fulfilment"]),
            (serve, ["DATABASE_URL": "hostaddr=10.0.0.1,10.0.0.2 dbname=fulfilment"]),
        ] {
            let (status, output) = try await ServiceProcess.run(arguments, environment: environment)
            #expect(status != 0, "\(output)")
            #expect(output.contains("several servers") && output.contains("no failover"), "\(output)")
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
