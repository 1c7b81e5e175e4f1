import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The smaller holes the second security review found (issue 41), each tried as the reviewer
/// tried it: a forged cursor, what an error line carries, a sign-in against an account with no
/// password, answers a cache could keep, an image that declares more pixels than a phone holds,
/// and connections that trickle their request head or pile up from one address.
@Suite("Security review: cursors, logs, sign-in, caching, images and connections")
struct SecurityReviewTests {
    /// A cursor's JSON, changed by `edit` and encoded again as the service encodes it.
    static func forge(_ cursor: String, _ edit: (inout [String: Any]) -> Void) throws -> String {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let data = try #require(Data(base64Encoded: base64))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test("a real cursor with its moment set to Int64.max or min is invalid_cursor, never a 500")
    func forgedCursorMoments() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            for price in [100, 200, 300] { _ = try await app.addProduct(store: store, name: "Rice \(price)", price: price) }
            let first = try await app.request(.get, "/v1/products?storeId=\(store)&sort=price&limit=1")
            let cursor = try #require(first.json["nextCursor"].string)
            #expect(try await app.request(.get, "/v1/products?storeId=\(store)&sort=price&limit=1&cursor=\(cursor)").status == .ok)
            for moment in [Int64.max, Int64.min, -1] {
                let forged = try Self.forge(cursor) { $0["a"] = moment }
                let reply = try await app.request(.get, "/v1/products?storeId=\(store)&sort=price&limit=1&cursor=\(forged)")
                #expect(reply.status == .unprocessableContent, "a=\(moment)")
                #expect(reply.errorCode == "invalid_cursor", "a=\(moment)")
            }
            let price = try Self.forge(cursor) { $0["p"] = Int64.max }
            #expect(try await app.request(.get, "/v1/products?storeId=\(store)&sort=price&limit=1&cursor=\(price)").errorCode == "invalid_cursor")

            // A dated cursor (the customer's orders) the same way.
            let product = try await app.addProduct(store: store, onHand: 50)
            let customer = try await app.registerCustomer()
            for _ in 0..<2 {
                try await app.fillCart(customer, store: store, [(product, 1)])
                #expect(try await app.checkout(customer).status == .created)
            }
            let orders = try await app.request(.get, "/v1/orders?limit=1", token: customer.token)
            let dated = try #require(orders.json["nextCursor"].string)
            for moment in [Int64.max, Int64.min] {
                let forged = try Self.forge(dated) { $0["t"] = moment }
                let reply = try await app.request(.get, "/v1/orders?limit=1&cursor=\(forged)", token: customer.token)
                #expect(reply.errorCode == "invalid_cursor", "t=\(moment)")
            }
        }
    }

    @Test("an error line names the operation and the error, never the request's token, cookie, query or body")
    func errorLines() throws {
        var request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/v1/products?cursor=SECRET-CURSOR")
        request.headerFields[.authorization] = "Bearer SECRET-TOKEN"
        request.headerFields[.cookie] = "fulfilment_session=SECRET-COOKIE"
        let error = ServerError(
            operationID: "searchProducts", request: request, requestBody: HTTPBody("{\"password\": \"SECRET-PASSWORD\"}"),
            requestMetadata: .init(), operationInput: ["password": "SECRET-PASSWORD"], causeDescription: "Unknown",
            underlyingError: CatalogueError.invalidCursor)
        #expect(String(reflecting: error).contains("SECRET"))  // what was logged before
        let line = ErrorLog.describe(error)
        #expect(line.hasPrefix("searchProducts: "))
        #expect(line.contains("invalidCursor"))
        #expect(!line.contains("SECRET"))
    }

    @Test("a failure of the service's own is logged with its path, and without its query, token or cookie")
    func failureLines() async throws {
        let log = LogCapture()
        try await withApp(logHandler: log) { app in
            let customer = try await app.registerCustomer()
            // A fault of ours, not the client's: the table the answer reads is gone.
            _ = try await sql("ALTER TABLE stores RENAME TO stores_gone", on: app.database)
            let reply = try await app.request(
                .get, "/v1/stores?limit=5&cursor=SECRET-CURSOR", token: customer.token,
                headers: [.cookie: "fulfilment_session=SECRET-COOKIE"])
            #expect(reply.status == .internalServerError)
            let failure = try #require(log.text.split(separator: "\n").first { $0.contains("request failed") })
            #expect(failure.contains("\"path\": /v1/stores"))
            #expect(!failure.contains("SECRET") && !failure.contains(customer.token))
            #expect(!log.text.contains("SECRET") && !log.text.contains(customer.token))
        }
    }

    @Test("an account with no password is checked against the dummy bcrypt hash, like an unknown email, and never signs in")
    func noPasswordSignIn() async throws {
        try await withApp { app in
            let database = try FulfilmentDomain.Database(connection: app.database, logger: Logger(label: "test"))
            let accounts = Accounts(database: database, hasher: PasswordHasher(cost: 4))
            #expect(accounts.hashToCheck(stored: Accounts.noPassword) == accounts.dummyHash)
            #expect(accounts.hashToCheck(stored: nil) == accounts.dummyHash)
            #expect(PasswordHasher.isHash(accounts.dummyHash))
            let real = "$2b$04$abcdefghijklmnopqrstuu5ETcZ1WlbZZ9Y1fDhZ6KUYS3iUdt8W."
            #expect(accounts.hashToCheck(stored: real) == real)

            let email = "provider-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await sql(
                "INSERT INTO users (email, name, password_hash, role) VALUES ($1, 'Provider Made', $2, 'customer')",
                [email, Accounts.noPassword], on: app.database)
            for password in ["", "!", Accounts.noPassword, "anything"] {
                let reply = try await app.login(email, password)
                #expect(reply.status == .unauthorized && reply.errorCode == "invalid_credentials", "password '\(password)'")
            }
        }
    }

    @Test("answers with personal data or the pickup credential are private, no-store; every answer is nosniff; the sheet has the console's CSP")
    func answerHeaders() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 10)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            let order = try #require(try await app.checkout(customer).json["id"].string)
            for path in ["/v1/orders/\(order)", "/v1/orders/\(order)/receipt.png", "/v1/orders/\(order)/receipt.svg", "/v1/me", "/v1/me/export"] {
                let reply = try await app.request(.get, path, token: customer.token)
                #expect(reply.status == .ok, "\(path)")
                #expect(reply.headers[.cacheControl]?.contains("no-store") == true, "\(path)")
                #expect(reply.headers[SecurityHeaders.noSniff] == "nosniff", "\(path)")
            }
            #expect(try await app.request(.get, "/v1/orders/\(order)", token: customer.token).headers[.cacheControl] == "private, no-store")
            // A public read without credentials keeps its own caching.
            #expect(try await app.request(.get, "/v1/stores").headers[.cacheControl] == nil)

            let staff = try await app.signIn(role: .staff, store: store)
            let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
            let id = try #require(list.json["id"].string)
            let sheet = try await app.request(.get, "/v1/pick-lists/\(id).html", token: staff.token)
            #expect(sheet.status == .ok)
            #expect(sheet.headers[SecurityHeaders.contentSecurityPolicy] == SecurityHeaders.sheetPolicy)
            #expect(sheet.headers[SecurityHeaders.frameOptions] == "DENY")
        }
    }

    @Test("an image is judged by its header: a small PNG declaring 50,000 × 50,000 pixels is refused; images are served nosniff")
    func imageDimensions() async throws {
        // A PNG's signature and IHDR: 8 + 25 bytes, then padding to 20 KB, as the reviewer sent it.
        @Sendable func png(width: UInt32, height: UInt32) -> [UInt8] {
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
            bytes += withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
            return bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20_000)
        }
        #expect(ImageHeader(Data(png(width: 50_000, height: 50_000)), kind: .png) == ImageHeader(width: 50_000, height: 50_000))
        #expect(ImageHeader(Data(tinyPNG), kind: .png) == ImageHeader(width: 1, height: 1))
        #expect(ImageHeader(Data(tinyJPEG), kind: .jpeg) == ImageHeader(width: 1, height: 1))
        #expect(ImageHeader(Data(tinyPNG.prefix(20)), kind: .png) == nil)
        #expect(ImageHeader(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]), kind: .jpeg) == nil)
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store)
            let admin = try await app.signInAdmin()
            let path = "/v1/products/\(product)/image"
            for (width, height) in [(50_000, 50_000), (10_001, 1), (8_000, 8_000), (0, 10)] {
                let huge = try await app.upload(
                    path, bytes: png(width: UInt32(width), height: UInt32(height)), contentType: "image/png", token: admin.token)
                #expect(huge.status == .unprocessableContent, "\(width) × \(height)")
                #expect(huge.errorCode == "image_dimensions", "\(width) × \(height)")
            }
            #expect(try await app.request(.get, path).status == .notFound)
            let fine = try await app.upload(path, bytes: png(width: 1200, height: 800), contentType: "image/png", token: admin.token)
            #expect(fine.status == .ok)
            let served = try await app.request(.get, path)
            #expect(served.headers[.contentType] == "image/png")
            #expect(served.headers[SecurityHeaders.noSniff] == "nosniff")
        }
    }

    @Test("a request head trickled a byte at a time is cut off at the head timeout, and the connection gets no answer")
    func slowHead() async throws {
        try await withApp(configure: { $0.connectionLimits = ConnectionLimits(headTimeout: .seconds(1), perClient: 50) }) { app in
            let port = try #require(app.port)
            let slow = try RawConnection(port: port)
            defer { slow.close() }
            var closed = false
            // "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaa…": a byte every 200 ms, never finished.
            for byte in Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 100) {
                guard slow.send([byte]) else {
                    closed = true
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
                if slow.peerClosed() {
                    closed = true
                    break
                }
            }
            #expect(closed, "the connection was still open after 20 s of trickled head")
            #expect(!slow.received.contains("HTTP/1.1"))
            // A client that sends its head at once is answered as ever.
            let prompt = try RawConnection(port: port)
            defer { prompt.close() }
            _ = prompt.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try await prompt.waitFor("HTTP/1.1 200"))
        }
    }

    @Test("one address holds at most its number of open connections; one more is closed at once; a freed place is taken again")
    func connectionsPerClient() async throws {
        // The test's own client holds one connection from 127.0.0.1 already.
        try await withApp(configure: { $0.connectionLimits = ConnectionLimits(headTimeout: .seconds(600), perClient: 4) }) { app in
            #expect(try await app.request(.get, "/healthz").status == .ok)
            let port = try #require(app.port)
            var held = try (0..<3).map { _ in try RawConnection(port: port) }
            for connection in held {
                _ = connection.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                #expect(try await connection.waitFor("HTTP/1.1 200"))
            }
            let extra = try RawConnection(port: port)
            defer { extra.close() }
            _ = extra.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try await extra.waitForClose())
            #expect(!extra.received.contains("HTTP/1.1"))
            held.removeLast().close()
            // The place is given back once the server has seen the close.
            var answered = false
            for _ in 0..<50 where !answered {
                let next = try RawConnection(port: port)
                _ = next.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                answered = try await next.waitFor("HTTP/1.1 200", seconds: 1)
                next.close()
                if !answered { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(answered)
            for connection in held { connection.close() }
        }
    }
}

/// A TCP connection to the service on loopback, non-blocking, for what the test client cannot
/// do: send a head slowly, or hold a connection open without a request.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32
    private var closed = false
    private(set) var received = ""

    init(port: Int) throws {
        socket = try loopbackSocket(port: port)
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    /// False when the peer has closed the connection.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads what has arrived; true once the peer has closed (a read of 0 bytes, or a reset).
    func peerClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += String(decoding: buffer[0..<count], as: UTF8.self)
                continue
            }
            if count == 0 { return true }
            return errno != EAGAIN && errno != EWOULDBLOCK
        }
    }

    func waitFor(_ text: String, seconds: Double = 10) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let ended = peerClosed()
            if received.contains(text) { return true }
            if ended { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func waitForClose(seconds: Double = 10) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if peerClosed() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func close() {
        guard !closed else { return }
        closed = true
        Foundation.close(socket)
    }

    deinit { close() }
}
