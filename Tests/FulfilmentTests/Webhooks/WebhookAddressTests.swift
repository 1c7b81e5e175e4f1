import AsyncHTTPClient
import Foundation
import NIOPosix
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

#if canImport(Glibc)
    import Glibc
#endif

/// Webhooks reach only the public internet (issue 24): every address that is not public is
/// refused when an endpoint is saved and again when each request is sent, in every spelling,
/// and a host name goes to an address that was checked. These run with the allowance off
/// unless a test says otherwise.
@Suite("Webhooks: only public addresses (SSRF), at save and at send")
struct WebhookAddressTests {
    /// A URL with each host, judged at save with the allowance off.
    static let refused = [
        // IPv4: this network, loopback, RFC 1918, link-local, CGNAT, multicast, reserved, broadcast.
        "0.0.0.0", "0.1.2.3", "127.0.0.1", "127.255.255.254", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
        "169.254.169.254", "100.64.0.1", "100.127.255.255", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
        "192.0.2.1", "198.18.0.1",
        // Numeric spellings of loopback and the metadata service, as inet_aton and browsers read them.
        "2130706433", "0x7f000001", "0X7F000001", "0177.0.0.1", "0177.0000.0000.0001", "127.1", "127.0.1", "0x7f.1", "0x7f.0.0.1",
        "017700000001", "2852039166", "0xa9fea9fe", "169.254.43518", "10.1", "0", "0x0", "127.0.0.1.", "0300.0250.0.1",
        // localhost, whatever DNS says.
        "localhost", "LOCALHOST", "localhost.", "api.localhost",
    ]
    static let allowed = [
        "8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "169.253.0.1",
        "134744072", "0x08080808", "partner.example", "hooks.partner.example", "localhost.partner.example", "127.0.0.1.partner.example",
    ]

    @Test("save-time check: each non-public address in every spelling is refused, public ones and host names pass")
    func saveTimeTable() throws {
        for host in Self.refused {
            #expect(throws: WebhookError.addressNotPublic, "\(host)") {
                try WebhookRules.url("http://\(host):5432/x", allowPrivate: false)
            }
            // The allowance lets each of them through (a shop's own network).
            #expect(try WebhookRules.url("http://\(host):5432/x", allowPrivate: true) == "http://\(host):5432/x", "\(host)")
        }
        for host in Self.allowed {
            #expect(try WebhookRules.url("https://\(host)/hook", allowPrivate: false) == "https://\(host)/hook", "\(host)")
        }
        // Ends in a number but is no IPv4 address: not a URL (as browsers say), allowance or not.
        for host in ["1.2.3.4.5", "256.0.0.1", "08.0.0.1", "0x1g.1", "1.2.3.4294967296", "4294967296", "partner.0x"] {
            #expect(throws: WebhookError.invalidURL, "\(host)") { try WebhookRules.url("http://\(host)/x", allowPrivate: true) }
        }
        // IPv6 literals are not admitted by the contract's pattern: invalid_url, whatever the address.
        for host in ["[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[fe80::1]", "[2001:4860:4860::8888]"] {
            #expect(throws: WebhookError.invalidURL, "\(host)") { try WebhookRules.url("http://\(host)/x", allowPrivate: false) }
        }
    }

    @Test("FULFILMENT_WEBHOOK_ALLOW_PRIVATE is off unless set to 1")
    func allowanceSetting() {
        #expect(!WebhookDispatchSettings.from(environment: [:]).allowPrivate)
        #expect(!WebhookDispatchSettings.from(environment: ["FULFILMENT_WEBHOOK_ALLOW_PRIVATE": "0"]).allowPrivate)
        #expect(WebhookDispatchSettings.from(environment: ["FULFILMENT_WEBHOOK_ALLOW_PRIVATE": "1"]).allowPrivate)
    }

    static func v6(_ text: String) -> IPAddress {
        var address = in6_addr()
        precondition(inet_pton(AF_INET6, text, &address) == 1, text)
        return .v6(withUnsafeBytes(of: &address) { Array($0) })
    }

    @Test("IPv6: loopback, unspecified, ULA, link-local, multicast and forms carrying a private IPv4 are not public")
    func ipv6Table() {
        for text in [
            "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "ff02::1", "ff0e::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
            "::ffff:169.254.169.254", "::127.0.0.1", "::7f00:1", "::a9fe:a9fe", "64:ff9b::127.0.0.1", "64:ff9b::10.1.2.3",
            "2002:7f00:1::", "2002:c0a8:101::1", "2001:db8::1", "fec0::1", "100::1", "3fff::1",
        ] {
            #expect(!WebhookAddress.isPublic(Self.v6(text)), "\(text)")
        }
        for text in ["2001:4860:4860::8888", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"] {
            #expect(WebhookAddress.isPublic(Self.v6(text)), "\(text)")
        }
        // The text the client is handed to connect to.
        #expect(IPAddress(127, 0, 0, 1).description == "127.0.0.1")
        #expect(Self.v6("2001:db8::1").description == "2001:db8::1")
        #expect(WebhookAddress.classify("2130706433") == .address(IPAddress(127, 0, 0, 1)))
        #expect(WebhookAddress.classify("0177.0.0.1") == .address(IPAddress(127, 0, 0, 1)))
        #expect(WebhookAddress.classify("10.1") == .address(IPAddress(10, 0, 0, 1)))
        #expect(WebhookAddress.classify("169.254.43518") == .address(IPAddress(169, 254, 169, 254)))
    }

    @Test("the API refuses non-public URLs on create and on update (422 webhook_address_not_public), and admits them with the allowance")
    func apiRefuses() async throws {
        let urls = ["http://127.0.0.1:5432/x", "http://169.254.169.254/latest/meta-data/", "http://2130706433/", "http://localhost:8080/h"]
        try await withApp(configure: { $0.webhookDispatch.sending = false }) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let admin = try await app.signInAdmin()
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/h")
            let id = webhook["id"].string!
            for url in urls {
                for session in [manager, admin] {
                    let created = try await app.request(.post, "/v1/webhooks", json: ["url": .string(url)], token: session.token)
                    #expect(created.status == .unprocessableContent, "\(url)")
                    #expect(created.errorCode == "webhook_address_not_public", "\(url)")
                    #expect(created.json["error"]["details"]["field"].string == "url")
                }
                let updated = try await app.request(.patch, "/v1/webhooks/\(id)", json: ["url": .string(url)], token: manager.token)
                #expect(updated.status == .unprocessableContent, "\(url)")
                #expect(updated.errorCode == "webhook_address_not_public", "\(url)")
            }
            // The bracketed IPv4-mapped loopback is no URL the contract admits.
            let mapped = try await app.request(.post, "/v1/webhooks", json: ["url": "http://[::ffff:127.0.0.1]/x"], token: manager.token)
            #expect(mapped.status == .unprocessableContent)
            #expect(mapped.errorCode == "invalid_url")
            let mappedPatch = try await app.request(.patch, "/v1/webhooks/\(id)", json: ["url": "http://[::ffff:127.0.0.1]/x"], token: manager.token)
            #expect(mappedPatch.errorCode == "invalid_url")
            // Nothing was saved: the endpoint still points where it did, and it is the only one.
            let endpoints = try await sql("SELECT url FROM webhook_endpoints", on: app.database)
            #expect(endpoints == [["https://partner.example/h"]])
        }
        try await withApp(configure: {
            $0.webhookDispatch.sending = false
            $0.webhookDispatch.allowPrivate = true
        }) { app in
            let manager = try await app.signIn(role: .manager, store: try await app.createStore())
            for url in urls { _ = try await app.createWebhook(manager, url: url) }
        }
    }

    @Test("at send: an endpoint on 127.0.0.1 or localhost (saved before the rule) is refused, never contacted, and nothing of a body is stored")
    func sendTimeRefusal() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks(schedule: [], allowPrivate: false) }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let byAddress = try await app.createWebhook(manager, url: "https://partner.example/a")
                let byName = try await app.createWebhook(manager, url: "https://partner.example/b")
                // As an endpoint saved before this release: a receiver that would answer 500 and a long body.
                let port = receiver.port
                _ = try await sql(
                    "UPDATE webhook_endpoints SET url = $1 WHERE id = $2", [receiver.url("/fail"), byAddress["id"].string!], on: app.database)
                _ = try await sql(
                    "UPDATE webhook_endpoints SET url = $1 WHERE id = $2", ["http://localhost:\(port)/fail", byName["id"].string!], on: app.database)
                _ = try await app.placeOrder(store: store)
                for webhook in [byAddress, byName] {
                    let delivery = try await app.waitForDelivery(of: webhook, by: manager, status: "failed")
                    #expect(delivery["lastError"].string == WebhookAddress.Refusal.notPublic.description)
                    #expect(!delivery.has("lastResponseCode"))
                }
                #expect(await receiver.hits.isEmpty)
                let stored = try await sql("SELECT last_error FROM webhook_deliveries", on: app.database).compactMap { $0[0] }
                #expect(stored.count == 2 && !stored.contains { $0.contains("nope") })
            }
        }
    }

    @Test("a host name goes to the address it resolved to, with Host (and TLS name) still the host name")
    func hostNameThroughCheckedAddress() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: "http://localhost:\(receiver.port)/ok")
                _ = try await app.placeOrder(store: store)
                let hit = try await receiver.waitForHits(1, to: "/ok")[0]
                #expect(hit.headers["host"] == "localhost:\(receiver.port)")
                _ = try await app.waitForDelivery(of: webhook, by: manager, status: "succeeded")
            }
        }
    }

    /// A name no DNS server knows, answered once by the sender's lookup: the request reaches the
    /// receiver only if the client connects to that answer and makes no lookup of its own.
    @Test("DNS rebinding: the name is looked up once, and the client connects to that answer, not to a second lookup")
    func connectsToTheCheckedAddress() async throws {
        try await withWebhookReceiver { receiver in
            let lookups = LookupLog()
            func sender(allowPrivate: Bool, answer: [IPAddress]) -> WebhookSender {
                WebhookSender(
                    eventLoopGroup: MultiThreadedEventLoopGroup.singleton, timeout: .seconds(10), responseLimit: 4096,
                    allowPrivate: allowPrivate,
                    lookUp: { name in
                        await lookups.record(name)
                        return answer
                    })
            }
            let delivery = ClaimedDelivery(
                id: WebhookDeliveryID(UUID()), endpoint: WebhookEndpointID(UUID()), eventID: EventID(UUID()), attempt: 1,
                url: "http://rebinding.invalid:\(receiver.port)/ok", secret: WebhookSigning.newSecret(), body: "{}")
            let outcome = await sender(allowPrivate: true, answer: [IPAddress(127, 0, 0, 1)]).send(delivery)
            #expect(outcome == .succeeded(code: 200))
            #expect(await lookups.names == ["rebinding.invalid"])
            let hit = try await receiver.waitForHits(1, to: "/ok")[0]
            #expect(hit.headers["host"] == "rebinding.invalid:\(receiver.port)")

            // An address that refuses the connection: the next checked one is tried (a server on
            // 127.0.0.1 takes no connection to 127.0.0.2); nothing was sent to the first.
            let fallback = await sender(allowPrivate: true, answer: [IPAddress(127, 0, 0, 2), IPAddress(127, 0, 0, 1)]).send(delivery)
            #expect(fallback == .succeeded(code: 200))
            #expect(try await receiver.waitForHits(2, to: "/ok").count == 2)

            // Without the allowance, one private address among public ones refuses the whole
            // request, and it is not sent to the public ones either.
            let mixed = await sender(allowPrivate: false, answer: [IPAddress(8, 8, 8, 8), IPAddress(127, 0, 0, 1)]).send(delivery)
            #expect(mixed == .unreachable(WebhookAddress.Refusal.notPublic.description))
            #expect(await receiver.hits.count == 2)
        }
    }

    @Test("the real resolver: localhost resolves to loopback only, an unknown name does not resolve")
    func systemResolver() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let resolver = HostResolver(pool: pool)
        let local = try await resolver.lookUp("localhost")
        #expect(!local.isEmpty)
        #expect(local.allSatisfy { !WebhookAddress.isPublic($0) })
        await #expect(throws: WebhookAddress.Refusal.doesNotResolve) { try await resolver.lookUp("no-such-host.invalid") }
        // What the endpoint's manager reads is the same either way: no probing of internal names.
        #expect(WebhookAddress.Refusal.doesNotResolve.description == WebhookAddress.Refusal.notPublic.description)
        try await pool.shutdownGracefully()
    }
}

actor LookupLog {
    private(set) var names: [String] = []
    func record(_ name: String) { names.append(name) }
}
