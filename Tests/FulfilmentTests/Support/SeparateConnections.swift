import Foundation
import HTTPTypes
import TestSupport

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

#if canImport(Glibc)
    import Glibc
#endif

/// Requests that really race: each over a TCP connection of its own, from a chosen loopback
/// address, all sent at the same moment.
///
/// `app.request` goes through the test framework's single client connection, which sends
/// one request after another; a race test needs every racer on its own connection. Each
/// racer runs on its own thread (blocking sockets, so none waits for a free pool thread),
/// connects, waits until every racer has connected, then sends and reads to the end.
/// Binding to another 127.x.y.z address lets a test be a different client address.
enum SeparateConnections {
    struct Request: Sendable {
        var method: String = "POST"
        var path: String
        var json: JSONValue? = nil
        var token: String? = nil
        /// Further header lines, sent as given.
        var headers: [String: String] = [:]
        /// The client's address: any 127.0.0.0/8 address reaches a server on 127.0.0.1 (Linux).
        var from: String = "127.0.0.1"
        /// A body sent as given with `Transfer-Encoding: chunked` (no length declared), in
        /// chunks of 64 KiB, instead of `json`. The server may answer and close before it has
        /// all: sending then stops and the answer is read.
        var chunked: [UInt8]? = nil
    }

    /// Sends every request at once and returns the replies in the same order.
    static func race(_ requests: [Request], port: Int) async throws -> [TestReply] {
        let barrier = Barrier(count: requests.count)
        return try await withThrowingTaskGroup(of: (Int, TestReply).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    let reply = try await Blocking.run { try exchange(request, port: port, barrier: barrier) }
                    return (index, reply)
                }
            }
            var replies = [TestReply?](repeating: nil, count: requests.count)
            for try await (index, reply) in group { replies[index] = reply }
            return replies.map { $0! }
        }
    }

    static func send(_ request: Request, port: Int) async throws -> TestReply {
        try await race([request], port: port)[0]
    }

    private static func exchange(_ request: Request, port: Int, barrier: Barrier) throws -> TestReply {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else {
            barrier.arrive()
            throw TestSetupError("socket() failed")
        }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            try call(bind, socket, address(request.from, port: 0), "bind to \(request.from)")
            try call(connect, socket, address("127.0.0.1", port: port), "connect")
        } catch {
            barrier.arrive()
            throw error
        }
        barrier.arrive()
        barrier.wait()

        var body = Data()
        if let json = request.json { body = try JSONEncoder().encode(json) }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let chunked = request.chunked {
            head += "Transfer-Encoding: chunked\r\n"
            body = Data()
            var offset = 0
            while offset < chunked.count {
                let chunk = chunked[offset..<min(offset + 64 * 1024, chunked.count)]
                body += Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + Data(chunk) + Data("\r\n".utf8)
                offset += chunk.count
            }
            body += Data("0\r\n\r\n".utf8)
        } else {
            head += "Content-Length: \(body.count)\r\n"
        }
        if request.json != nil { head += "Content-Type: application/json\r\n" }
        if let token = request.token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + Array(body)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0, request.chunked != nil { break }  // answered and closed early: read the answer
            guard n > 0 else { throw TestSetupError("send failed") }
            sent += n
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw TestSetupError("recv failed or timed out (errno \(errno))") }
            received += buffer[0..<n]
        }
        return try parse(received)
    }

    private static func address(_ ip: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, ip, &address.sin_addr)
        return address
    }

    private static func call(
        _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ socket: Int32, _ address: sockaddr_in, _ what: String
    ) throws {
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestSetupError("\(what) failed (errno \(errno))") }
    }

    /// A whole HTTP/1.1 response read to the connection's end (plain or chunked body).
    private static func parse(_ bytes: [UInt8]) throws -> TestReply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0...(max(bytes.count - 4, 0))).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
            throw TestSetupError("no HTTP response head")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else { throw TestSetupError("bad status line \(lines[0])") }
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(bytes[(end + 4)...])
        if headers[.transferEncoding]?.lowercased().contains("chunked") == true { body = dechunk(body) }
        return TestReply(status: HTTPResponse.Status(code: code), headers: headers, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
                size > 0
            else { break }
            let start = lineEnd + 2
            out += bytes[start..<min(start + size, bytes.count)]
            index = start + size + 2
        }
        return out
    }
}

/// Lets threads wait until all of them have arrived.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var remaining: Int

    init(count: Int) { remaining = count }

    func arrive() {
        condition.lock()
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}

extension TestApp {
    /// The port the service under test listens on, for requests over connections of their own.
    var livePort: Int {
        get throws {
            guard let port else { throw TestSetupError("the test app has no live port") }
            return port
        }
    }
}
