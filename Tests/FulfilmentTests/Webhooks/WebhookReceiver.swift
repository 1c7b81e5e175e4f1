import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A partner's endpoint, for real: a small Hummingbird server on a free loopback port in the
/// test process, recording every request it gets (headers and body) and answering as its path
/// says.
///
/// - `/ok`: 200.
/// - `/flaky/N`: 500 for the first N requests to that path, then 200.
/// - `/fail`: 500 with a 10 KB body, always.
/// - `/redirect`: 307 to `/target`, which answers 200 (and counts, so a followed redirect shows).
/// - `/huge`: 200 with a body that never ends; `hugeCut` says whether the sender hung up on it.
/// - `/trickle/N`: 503 at once, then a body of one byte every N milliseconds for 40 s;
///   `trickling` counts the requests still being answered so (the sender has not hung up).
actor WebhookReceiver {
    struct Hit: Sendable {
        var path: String
        /// Header names lower-cased.
        var headers: [String: String]
        var body: String
    }

    private(set) var hits: [Hit] = []
    private(set) var hugeCut = false
    private(set) var trickling = 0
    nonisolated let port: Int

    init(port: Int) { self.port = port }

    nonisolated func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func hits(to path: String) -> [Hit] { hits.filter { $0.path == path } }

    fileprivate func record(_ hit: Hit) -> Int {
        hits.append(hit)
        return hits(to: hit.path).count
    }

    fileprivate func cutHuge() { hugeCut = true }

    fileprivate func trickle(_ change: Int) { trickling += change }

    /// Waits (bounded) until `count` requests are being trickled to.
    func waitForTrickling(_ count: Int, seconds: Int = 30) async throws {
        for _ in 0..<(seconds * 20) {
            if trickling >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("\(trickling) of \(count) requests being trickled to within \(seconds) s")
    }

    /// Waits (bounded) until `path` has had `count` requests; returns them.
    func waitForHits(_ count: Int, to path: String, seconds: Int = 30) async throws -> [Hit] {
        for _ in 0..<(seconds * 20) {
            let found = hits(to: path)
            if found.count >= count { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("\(path) had \(hits(to: path).count) of \(count) requests within \(seconds) s")
    }

    /// Waits (bounded) until the sender has hung up on the endless body.
    func waitForHugeCut(seconds: Int = 30) async throws {
        for _ in 0..<(seconds * 20) {
            if hugeCut { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("the sender kept reading the endless body for \(seconds) s")
    }

    fileprivate static func router(for receiver: @escaping @Sendable () -> WebhookReceiver) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/**") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            // HTTPTypes keeps the Host header as the request's authority.
            if let authority = request.head.authority { headers["host"] = authority }
            let path = request.uri.path
            let receiver = receiver()
            let count = await receiver.record(Hit(path: path, headers: headers, body: String(buffer: body)))
            switch path {
            case "/ok", "/target":
                return Response(status: .ok)
            case "/fail":
                return Response(
                    status: .internalServerError, headers: [.contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: String(repeating: "nope ", count: 2000))))
            case "/redirect":
                return Response(status: .temporaryRedirect, headers: [.location: receiver.url("/target")])
            case "/huge":
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
                        do {
                            while true {
                                try await writer.write(chunk)
                                try await Task.sleep(for: .milliseconds(5))
                            }
                        } catch {
                            await receiver.cutHuge()
                            throw error
                        }
                    })
            default:
                if path.hasPrefix("/trickle/"), let pause = Int(path.dropFirst("/trickle/".count)) {
                    await receiver.trickle(1)
                    return Response(
                        status: .serviceUnavailable,
                        body: ResponseBody { writer in
                            // Ends after 40 s at most, so that a test on a sender that never hangs up
                            // fails instead of holding the receiver's shutdown.
                            let end = ContinuousClock.now + .seconds(40)
                            do {
                                while ContinuousClock.now < end {
                                    try await writer.write(ByteBuffer(string: "."))
                                    try await Task.sleep(for: .milliseconds(pause))
                                }
                            } catch {
                                await receiver.trickle(-1)
                                throw error
                            }
                            await receiver.trickle(-1)
                            try await writer.finish(nil)
                        })
                }
                if path.hasPrefix("/flaky/"), let failures = Int(path.dropFirst("/flaky/".count)) {
                    return Response(status: count <= failures ? .internalServerError : .ok)
                }
                return Response(status: .notFound)
            }
        }
        return router
    }
}

/// Runs `body` with a receiver listening on a free loopback port.
func withWebhookReceiver<T: Sendable>(_ body: @escaping @Sendable (WebhookReceiver) async throws -> T) async throws -> T {
    let box = ReceiverBox()
    let app = Application(
        router: WebhookReceiver.router(for: { box.receiver! }),
        configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "receiver"))
    return try await app.test(.live) { client in
        guard let port = client.port else { throw TestSetupError("the receiver has no port") }
        let receiver = WebhookReceiver(port: port)
        box.receiver = receiver
        return try await body(receiver)
    }
}

/// The receiver, known only once its server has a port; set before any request can arrive.
private final class ReceiverBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: WebhookReceiver?
    var receiver: WebhookReceiver? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
