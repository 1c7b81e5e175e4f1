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

    @Test("unset keywords fall back to libpq's defaults")
    func defaults() throws {
        let info = try ConnectionInfo.parse("dbname=only")
        #expect(info.database == "only")
        #expect(info.port > 0)
        #expect(info.options["user"] != nil)
    }
}
