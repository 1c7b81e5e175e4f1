import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Behind the TLS proxy the README recommends, every client arrives from the proxy's address
/// (issue 24): sign-in throttling counts the client the proxy names, and only a trusted proxy
/// may name one.
@Suite("Trusted proxies: X-Forwarded-For read from them alone, rightmost untrusted hop first")
struct TrustedProxyTests {
    @Test("the client is the rightmost hop that is not a trusted proxy; anything further left is whatever a client wrote")
    func rightmostUntrusted() {
        let proxies = TrustedProxies(parsing: "127.0.0.1/32, 10.0.0.0/8 fd00::/8")
        #expect(proxies.invalid.isEmpty)
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5"]) == "203.0.113.5")
        // A client that sends its own header: the proxy appends the real address on the right.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 203.0.113.5"]) == "203.0.113.5")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "203.0.113.5, 10.1.2.3"]) == "203.0.113.5")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["2001:db8::7, fd00::1"]) == "2001:db8::7")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["[2001:db8::7]:4711", "203.0.113.9:5000"]) == "203.0.113.9")
        // Every hop trusted: the leftmost is as far as anyone can tell.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["10.0.0.9, 10.0.0.2"]) == "10.0.0.9")
        // Garbage ends the walk at the trusted hop that reported it; no header: the proxy itself.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5, not-an-address"]) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["unknown, 10.0.0.2"]) == "10.0.0.2")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        // An untrusted peer is the client, whatever it says.
        #expect(proxies.client(peer: "198.51.100.4", forwardedFor: ["203.0.113.5"]) == "198.51.100.4")
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5"]) == "127.0.0.1")
    }

    @Test("the setting reads CIDRs and bare addresses, IPv4 and IPv6, and names every entry it cannot read")
    func parsing() {
        let good = TrustedProxies(parsing: " 192.168.0.0/16,::1 2001:db8::/32\n::ffff:10.0.0.0/104 ")
        #expect(good.invalid.isEmpty)
        #expect(good.client(peer: "192.168.77.1", forwardedFor: ["203.0.113.1"]) == "203.0.113.1")
        #expect(good.client(peer: "::1", forwardedFor: ["203.0.113.2"]) == "203.0.113.2")
        #expect(good.client(peer: "10.9.9.9", forwardedFor: ["203.0.113.3"]) == "203.0.113.3")
        #expect(good.client(peer: "192.169.0.1", forwardedFor: ["203.0.113.4"]) == "192.169.0.1")
        let bad = TrustedProxies(parsing: "10.0.0.0/33, proxy.local, 10.0.0.0/8, 1.2.3, fe80::/129")
        #expect(bad.invalid == ["10.0.0.0/33", "proxy.local", "1.2.3", "fe80::/129"])
    }

    @Test("through a trusted proxy, five wrong passwords lock that client alone; the manager still signs in from elsewhere")
    func throughTheProxy() async throws {
        try await withApp(configure: { $0.trustedProxies = TrustedProxies(parsing: "127.0.0.1/32") }) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store, password: "manager password")
            let email = try await app.email(of: manager)
            let port = try app.livePort
            func viaProxy(_ password: String, client: String) -> SeparateConnections.Request {
                var request = SeparateConnections.Request.login(email, password, from: "127.0.0.1")
                request.headers = ["X-Forwarded-For": client]
                return request
            }
            for guess in 0..<5 {
                #expect(try await SeparateConnections.send(viaProxy("guess \(guess)", client: "203.0.113.5"), port: port).status == .unauthorized)
            }
            let guesser = try await SeparateConnections.send(viaProxy("manager password", client: "203.0.113.5"), port: port)
            #expect(guesser.errorCode == "too_many_attempts")
            let owner = try await SeparateConnections.send(viaProxy("manager password", client: "198.51.100.20"), port: port)
            #expect(owner.status == .ok, "\(owner.text)")
            let counted = try await sql(
                "SELECT DISTINCT address FROM login_throttle WHERE failures > 0 AND address <> '' ORDER BY address", on: app.database)
            #expect(counted.map { $0[0] }.contains("203.0.113.5"))
            #expect(!counted.map { $0[0] }.contains("127.0.0.1"), "the proxy's own address is no client")
        }
    }

    @Test("a FULFILMENT_TRUSTED_PROXIES entry that is no CIDR stops the service at start, naming it")
    func refusedAtStart() async throws {
        try await withKeysAndDatabase { keys, database in
            let (status, output) = try await ServiceProcess.run(
                ["serve", "--database-url", Backup.conninfo(database), "--port", String(try ServiceProcess.freePort()), "--keys-dir", keys.path],
                environment: ["FULFILMENT_TRUSTED_PROXIES": "10.0.0.0/8, 10.0.0.0/33"])
            #expect(status != 0)
            #expect(output.contains("FULFILMENT_TRUSTED_PROXIES: 10.0.0.0/33 is not an address or CIDR block"), "\(output)")
        }
    }
}
