import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A server-sent-events reader on a TCP connection of its own, as a browser's `EventSource` or
/// a partner's app holds one: the test framework's client reads whole responses, and these
/// never end. A thread reads the socket; the test waits for events with a bounded wait.
final class SSEClient: @unchecked Sendable {
    struct Event: Sendable, Equatable {
        var id: Int64?
        var type: String?
        var data: String
        /// The `data:` line as JSON.
        var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8))) ?? .null }
    }

    private let socket: Int32
    private let lock = NSLock()
    private var head: String?
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private var parsed: [Event] = []
    private var comments = 0
    private var ended = false
    /// The socket has been closed: its number may already belong to another connection of this
    /// process (a libpq socket, another test's HTTP client), so it must never be touched again.
    private var released = false

    /// Connects to `127.0.0.1:port`, sends `GET path`, and starts reading.
    init(port: Int, path: String, token: String?, cookie: String? = nil, lastEventID: Int64? = nil) throws {
        socket = try loopbackSocket(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
        try Blocking.detach { [self] in readLoop() }
    }

    deinit { close() }

    /// Closes the connection: the client went away. Only while the reader still owns the
    /// socket; shutting down a number the reader has closed would cut whichever connection the
    /// process opened next with it (that was once a whole test run's random closed connections).
    func close() {
        lock.withLock {
            if !released { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// The response's status code, once the head has arrived.
    var status: Int? {
        lock.withLock { head.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } }
    }

    var events: [Event] { lock.withLock { parsed } }
    /// How many comment lines (heartbeats) arrived.
    var heartbeats: Int { lock.withLock { comments } }
    /// The server ended the stream: its last chunk came, or it closed the connection.
    var hasEnded: Bool { lock.withLock { ended } }

    /// Waits until `count` events have arrived (at most `seconds`), and returns them all.
    @discardableResult
    func waitForEvents(_ count: Int, seconds: Double = 10) async throws -> [Event] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let events = self.events
            if events.count >= count { return events }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSetupError("expected \(count) events within \(seconds) s, got \(events.count): \(events.map { $0.type ?? "?" })")
    }

    /// Waits until `condition` holds (at most `seconds`).
    func wait(seconds: Double = 30, until condition: (SSEClient) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSetupError("condition not met within \(seconds) s")
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            lock.withLock { receive(buffer[0..<count]) }
        }
        lock.withLock {
            ended = true
            released = true
            Foundation.close(socket)
        }
    }

    /// Splits the head from the body, undoes chunked transfer coding, and parses whole events.
    private func receive(_ bytes: ArraySlice<UInt8>) {
        raw.append(contentsOf: bytes)
        if head == nil {
            guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            raw.removeSubrange(..<end.upperBound)
        }
        let chunked = head?.lowercased().contains("transfer-encoding: chunked") ?? false
        if chunked {
            while let lineEnd = raw.firstRange(of: Array("\r\n".utf8)),
                let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
                raw.count >= lineEnd.upperBound + size + 2
            {
                body.append(contentsOf: raw[lineEnd.upperBound..<(lineEnd.upperBound + size)])
                raw.removeSubrange(..<(lineEnd.upperBound + size + 2))
                // The last chunk: the server ended the response (the connection may stay open).
                if size == 0 { ended = true }
            }
        } else {
            body.append(contentsOf: raw)
            raw.removeAll()
        }
        while let end = body.firstRange(of: Array("\n\n".utf8)) {
            let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body.removeSubrange(..<end.upperBound)
            var event = Event(data: "")
            var dataLines: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    comments += 1
                    continue
                }
                let field = line.prefix { $0 != ":" }
                var value = line.dropFirst(field.count).dropFirst()
                if value.hasPrefix(" ") { value = value.dropFirst() }
                switch field {
                case "id": event.id = Int64(value)
                case "event": event.type = String(value)
                case "data": dataLines.append(String(value))
                default: break
                }
            }
            event.data = dataLines.joined(separator: "\n")
            if event.id != nil || !dataLines.isEmpty { parsed.append(event) }
        }
    }
}
