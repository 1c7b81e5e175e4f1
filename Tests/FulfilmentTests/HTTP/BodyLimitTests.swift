import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A client cannot make the service read more than a route takes, and is told so plainly
/// (issue 24): a body of unknown length (chunked) is capped as surely as a declared one.
@Suite("Body limits: 413 payload_too_large for an oversized body, chunked or not, whatever its type")
struct BodyLimitTests {
    /// 3 MiB of what looks like the start of a JSON sign-up that never ends.
    static let threeMiB = Array(#"{"email": "a@example.com", "name": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 3 * 1024 * 1024)

    static func chunked(_ path: String, method: String = "POST", type: String?, body: [UInt8] = threeMiB) -> SeparateConnections.Request {
        SeparateConnections.Request(method: method, path: path, headers: type.map { ["Content-Type": $0] } ?? [:], chunked: body)
    }

    @Test("3 MiB chunked on an anonymous route: 413 payload_too_large with any Content-Type or none, and a GET too")
    func chunkedOverTheCap() async throws {
        try await withApp { app in
            let port = try app.livePort
            for type in ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", nil] {
                let reply = try await SeparateConnections.send(Self.chunked("/v1/auth/register", type: type), port: port)
                #expect(reply.status == .contentTooLarge, "\(type ?? "no type"): \(reply.status) \(reply.text)")
                #expect(reply.errorCode == "payload_too_large", "\(type ?? "no type"): \(reply.text)")
                #expect(reply.json["error"]["details"]["limitBytes"].int == 1024 * 1024)
            }
            let get = try await SeparateConnections.send(Self.chunked("/v1/stores", method: "GET", type: nil), port: port)
            #expect(get.status == .contentTooLarge, "\(get.text)")
            // The console's forms have their own, smaller cap.
            let form = try await SeparateConnections.send(
                Self.chunked("/signin", type: "application/x-www-form-urlencoded", body: [UInt8](repeating: 0x61, count: 100_000)), port: port)
            #expect(form.status == .contentTooLarge, "\(form.text)")
            // Nothing was written: no account for the address the bodies began with.
            let accounts = try await sql("SELECT count(*) FROM users WHERE email = 'a@example.com'", on: app.database)
            #expect(accounts[0][0] == "0")
        }
    }

    @Test("a chunked body within the cap is read as usual: a chunked sign-up is 201")
    func chunkedWithinTheCap() async throws {
        try await withApp { app in
            let body = Array(
                #"{"email": "chunky@example.com", "name": "Chunky", "password": "correct horse", "passwordConfirmation": "correct horse"}"#.utf8)
            let reply = try await SeparateConnections.send(
                Self.chunked("/v1/auth/register", type: "application/json", body: body), port: try app.livePort)
            #expect(reply.status == .created, "\(reply.text)")
        }
    }

    @Test("a declared length over the route's cap is refused before the body is read; an image route keeps its 2 MiB")
    func declaredOverTheCap() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer()
            let oneAndABitMiB = "{\"paymentMethod\": \"" + String(repeating: "x", count: 1024 * 1024) + "\"}"
            let reply = try await app.request(.post, "/v1/checkout", rawBody: oneAndABitMiB, token: customer.token)
            #expect(reply.status == .contentTooLarge)
            #expect(reply.errorCode == "payload_too_large")
            #expect(BodyLimit.of(method: .put, path: "/v1/products/\(UUID())/image").bytes == 2 * 1024 * 1024)
            #expect(BodyLimit.of(method: .post, path: "/v1/payments/webhook").bytes == 64 * 1024)
        }
    }

    @Test("thirty 3 MiB chunked bodies refused: the service keeps none of them")
    func memoryStaysBounded() async throws {
        try await withKeysAndDatabase { keys, database in
            let service = try await ServiceProcess.start(database: database, keysDir: keys)
            defer { service.signal(SIGKILL) }
            func send() async throws {
                let reply = try await SeparateConnections.send(Self.chunked("/v1/auth/register", type: "application/json"), port: service.port)
                #expect(reply.status == .contentTooLarge, "\(reply.text)")
            }
            // Warmed up: pools, the allocator's arenas and buffers at their working size.
            for _ in 0..<10 { try await send() }
            let before = try Self.residentKiB(of: service.pid)
            for _ in 0..<30 { try await send() }
            let after = try Self.residentKiB(of: service.pid)
            print("memory: resident \(before) KiB before, \(after) KiB after 90 MiB refused")
            // 90 MiB were sent. A service that kept the bodies (or even the MiB it reads of each
            // before refusing) would grow by 30 MiB or more; Hummingbird itself keeps a little
            // of each refused connection (about 0.4 MiB here; see the README), well under this.
            #expect(after - before < 24 * 1024, "resident memory grew from \(before) KiB to \(after) KiB")
        }
    }

    /// `VmRSS` of a process, in KiB.
    static func residentKiB(of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw TestSetupError("no VmRSS for \(pid)") }
        return kib
    }
}
