import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// How an operator watches the service (issue 12).
@Suite("Metrics: Prometheus text at /metrics")
struct MetricsTests {
    /// The value of the sample whose line starts with `prefix` (name and labels), or 0.
    func sample(_ text: String, _ prefix: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        return 0
    }

    @Test("requests by route and status, checkouts and scans by outcome are counted; the database is up")
    func counts() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let before = try await app.request(.get, "/metrics").text
            let (_, order, _) = try await app.placeOrder(store: store)
            #expect(try await app.scan(order["pickupToken"].string!, by: staff).errorCode == "not_ready")
            #expect(try await app.scan("FC1:nonsense", by: staff, preview: true).errorCode == "invalid_token")

            let metrics = try await app.request(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            #expect(sample(text, "fulfilment_checkouts_total") >= sample(before, "fulfilment_checkouts_total") + 1)
            #expect(sample(text, #"fulfilment_collections_total{outcome="not_ready",preview="false"}"#) >= 1)
            #expect(sample(text, #"fulfilment_collections_total{outcome="invalid_token",preview="true"}"#) >= 1)
            #expect(text.contains("/v1/checkout"), "requests are labelled by route")
            #expect(text.contains("http_server_request_duration_seconds_bucket") || text.contains("duration"))
            var up = sample(text, "fulfilment_database_up")
            for _ in 0..<20 where up != 1 {
                try await Task.sleep(for: .milliseconds(100))
                up = sample(try await app.request(.get, "/metrics").text, "fulfilment_database_up")
            }
            #expect(up == 1)
        }
    }

    @Test("with a metrics token set, /metrics needs it")
    func token() async throws {
        let endpoint = MetricsEndpoint(token: "s3cret-metrics", host: "0.0.0.0")
        func request(_ authorization: String?) -> Request {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/metrics")
            if let authorization { head.headerFields[.authorization] = authorization }
            return Request(head: head, body: .init(buffer: .init()))
        }
        #expect(throws: APIError.self) { try endpoint.response(for: request(nil)) }
        #expect(throws: APIError.self) { try endpoint.response(for: request("Bearer wrong-metrics")) }
        #expect(try endpoint.response(for: request("Bearer s3cret-metrics")).status == .ok)
    }

    @Test("without a token, /metrics is open on a loopback listener only; elsewhere it is off")
    func openOnLoopbackOnly() {
        for host in ["127.0.0.1", "127.0.0.53", "::1", "localhost"] {
            #expect(MetricsEndpoint(token: nil, host: host).access == .open, "\(host)")
        }
        for host in ["0.0.0.0", "::", "10.0.0.5", "192.168.1.20", "shop.example.com", "::ffff:10.0.0.1"] {
            #expect(MetricsEndpoint(token: nil, host: host).access == .off, "\(host)")
        }
        #expect(MetricsEndpoint(token: "t", host: "0.0.0.0").access == .token("t"))
    }

    @Test("a service listening beyond loopback with no metrics token answers /metrics 404, as a path it lacks, and logs how to turn it on")
    func offBeyondLoopback() async throws {
        try await withKeysAndDatabase { keys, database in
            let service = try await ServiceProcess.start(
                database: database, keysDir: keys, environment: ["FULFILMENT_HOST": "0.0.0.0", "FULFILMENT_METRICS_TOKEN": ""])
            defer { service.signal(SIGKILL) }
            let app = service.app(database: database)
            let metrics = try await app.request(.get, "/metrics")
            let missing = try await app.request(.get, "/no-such-page")
            #expect(metrics.status == .notFound)
            #expect(metrics.text == missing.text, "indistinguishable from a path the service does not have")
            #expect(!metrics.text.contains("fulfilment_"))
            #expect(service.log.contains("GET /metrics is off"), "\(service.log)")
            #expect(service.log.contains("FULFILMENT_METRICS_TOKEN"))
        }
    }
}
