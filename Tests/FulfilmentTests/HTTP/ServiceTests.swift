import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The service answers health checks and errors in one envelope")
struct ServiceTests {
    @Test("/healthz and /readyz are 200 on a migrated database")
    func healthy() async throws {
        try await withApp { app in
            let health = try await app.request(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(health.json["status"].string == "ok")
            // Ready once its first probe has answered: asked as a load balancer asks, a few times.
            var ready = try await app.request(.get, "/readyz")
            for _ in 0..<40 where ready.status != .ok {
                try await Task.sleep(for: .milliseconds(250))
                ready = try await app.request(.get, "/readyz")
            }
            #expect(ready.status == .ok)
            #expect(ready.json["checks"]["migrations"].string == "ok")
        }
    }

    @Test("every response carries a request id; a sane one sent by the client is echoed")
    func requestID() async throws {
        try await withApp { app in
            let echoed = try await app.request(.get, "/healthz", headers: [.init("X-Request-Id")!: "abc-123"])
            #expect(echoed.headers[.init("X-Request-Id")!] == "abc-123")
            let forged = try await app.request(.get, "/healthz", headers: [.init("X-Request-Id")!: "a b\tINFO fake"])
            let generated = forged.headers[.init("X-Request-Id")!]
            #expect(generated != nil && generated != "a b\tINFO fake")
        }
    }

    @Test("an unknown route is a 404 in the error envelope")
    func notFound() async throws {
        try await withApp { app in
            let reply = try await app.request(.get, "/v1/nothing-here")
            #expect(reply.status == .notFound)
            #expect(reply.errorCode == "not_found")
            #expect(reply.json["error"]["message"].string?.isEmpty == false)
        }
    }

    @Test("the OpenAPI contract is served as written")
    func openAPIDocument() async throws {
        try await withApp { app in
            let reply = try await app.request(.get, "/openapi.yaml")
            #expect(reply.status == .ok)
            #expect(reply.text.hasPrefix("openapi: 3.1"))
            #expect(reply.text.contains("/readyz"))
        }
    }

    @Test("decoding failures map to 400 malformed_json and 422 naming the field")
    func decodingErrors() throws {
        struct Body: Decodable {
            var email: String
            var quantity: Int
        }
        func mapped(_ json: String) -> APIError {
            let decoded = Result { try JSONDecoder().decode(Body.self, from: Data(json.utf8)) }
            guard case .failure(let error) = decoded, let decoding = error as? DecodingError else { return .internal }
            return ErrorMiddleware<AppRequestContext>.apiError(for: decoding)
        }
        #expect(mapped("{not json").code == "malformed_json")
        #expect(mapped("{not json").status == .badRequest)
        let missing = mapped(#"{"quantity": 1}"#)
        #expect(missing.status == .unprocessableContent)
        #expect(missing.code == "missing_field")
        #expect(missing.details?["field"] == .string("email"))
        let wrongType = mapped(#"{"email": "a@b.c", "quantity": "two"}"#)
        #expect(wrongType.code == "invalid_field")
        #expect(wrongType.details?["field"] == .string("quantity"))
    }

    @Test("date-times are read with or without fractional seconds and with offsets, and written in whole seconds UTC")
    func dateTimes() throws {
        let transcoder = RFC3339DateTranscoder()
        let whole = try transcoder.decode("2026-11-23T08:30:00Z")
        #expect(try transcoder.decode("2026-11-23T08:30:00.125Z").timeIntervalSince(whole) == 0.125)
        #expect(try transcoder.decode("2026-11-23T09:30:00+01:00") == whole)
        #expect(try transcoder.encode(whole) == "2026-11-23T08:30:00Z")
        #expect(try transcoder.decode("2026-11-22T19:11:00-13:19") == whole)
        #expect(try transcoder.decode("0269-04-17T21:51:43Z") < whole)
        for bad in ["2026-11-23 08:30", "2026-13-01T00:00:00Z", "2026-11-23T08:30:00", "2026-11-23T24:00:00Z", "2026-11-23T08:30:00+1:00"] {
            #expect(throws: DecodingError.self) { try transcoder.decode(bad) }
        }
    }

    @Test("/readyz goes 503 when the database is stopped, and back to 200 when it returns")
    func readinessFollowsDatabase() async throws {
        let dir = URL(fileURLWithPath: "/tmp/fulfilment-ready-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let embedded = try EmbeddedPostgres(dataDirectory: dir.appendingPathComponent("pg"), logger: Logger(label: "test"))
        try embedded.start()
        defer { embedded.stop() }
        try await withApp(database: embedded.connectionInfo) { app in
            // A busy machine may take longer than readiness's two seconds to open the first connection.
            #expect(try await app.readiness(within: 40) == .ok)
            embedded.stop()
            let down = try await app.request(.get, "/readyz")
            #expect(down.status == .serviceUnavailable)
            #expect(down.json["checks"]["database"].string == "unreachable")
            #expect(try await app.request(.get, "/healthz").status == .ok)
            try embedded.start()
            #expect(try await app.readiness(within: 40) == .ok)
        }
    }

    @Test("the embedded cluster starts again after its server was killed, even if its old PID is reused")
    func embeddedRecoversFromKill() async throws {
        let dir = URL(fileURLWithPath: "/tmp/fulfilment-kill-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let embedded = try EmbeddedPostgres(dataDirectory: dir.appendingPathComponent("pg"), logger: Logger(label: "test"))
        try embedded.start()
        defer { embedded.stop() }
        let pidFile = embedded.clusterDirectory.appendingPathComponent("postmaster.pid")
        let lines = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let serverPID = try #require(Int32(lines[0]))
        // Kill it the hard way; it leaves its pid file (and here its socket, which we remove as a
        // reboot would), and make the pid file name a live process: this test's own.
        kill(serverPID, SIGKILL)
        while kill(serverPID, 0) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        try? FileManager.default.removeItem(atPath: embedded.socketPath)
        try ([String(getpid())] + lines.dropFirst().map(String.init)).joined(separator: "\n")
            .write(to: pidFile, atomically: false, encoding: .utf8)
        #expect(!embedded.isRunning)
        #expect(try embedded.start())
        #expect(embedded.isRunning)
    }
}

extension TestApp {
    /// `/readyz`'s status once it is 200, or the last one seen after `tries` tries a quarter of a
    /// second apart.
    func readiness(within tries: Int) async throws -> HTTPResponse.Status {
        var status = try await request(.get, "/readyz").status
        for _ in 0..<tries where status != .ok {
            try await Task.sleep(for: .milliseconds(250))
            status = try await request(.get, "/readyz").status
        }
        return status
    }
}
