import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A headless Chromium driven through `chromedriver` with the W3C WebDriver protocol (JSON over
/// HTTP), so console tests use the pages as a person does: typing, clicking, reading.
///
/// `start()` runs chromedriver as a child process on a free loopback port and opens one browser
/// session; `quit()` ends both. Every command waits for its answer; `waitFor` polls the page.
final class WebDriver: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let port: Int
    /// The browser's profile folder, removed by `quit()`.
    private let profile: URL
    private var sessionID = ""

    /// Whether Debian's `chromium` and `chromium-driver` are installed (`make test` installs them).
    static var available: Bool { executable("chromedriver") != nil && executable("chromium") != nil }

    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private init(process: Process, port: Int, profile: URL) {
        self.process = process
        self.port = port
        self.profile = profile
    }

    /// Starts chromedriver and a headless browser `width`×`height` pixels large.
    /// `mobile` emulates a phone-sized device of that viewport (a handheld scanner's screen),
    /// since a desktop window cannot be made that narrow.
    static func start(width: Int = 1280, height: Int = 900, mobile: Bool = false) async throws -> WebDriver {
        // Under the full suite's load a chromedriver can lose its port to another test between
        // `freePort` and its bind, or start slower than the wait: a fresh one on a fresh port is
        // tried before the test is failed for it.
        var attempt = 1
        while true {
            do {
                return try await startOnce(width: width, height: height, mobile: mobile)
            } catch let failure as Failure where attempt < 3 && failure.description.hasPrefix("chromedriver did not start") {
                attempt += 1
            }
        }
    }

    private static func startOnce(width: Int, height: Int, mobile: Bool) async throws -> WebDriver {
        guard let driverPath = executable("chromedriver"), let chromium = executable("chromium") else {
            throw Failure(description: "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
        }
        let port = try freePort()
        let process = Process()
        process.executableURL = driverPath
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("console-chromium-\(UUID().uuidString)")
        let driver = WebDriver(process: process, port: port, profile: profile)
        do {
            try await driver.waitUntilReady()
            var options: [String: Any] = [
                "binary": chromium.path,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=\(max(width, 800)),\(height)", "--user-data-dir=\(profile.path)", "--lang=en-GB",
                ],
            ]
            if mobile {
                options["mobileEmulation"] = ["deviceMetrics": ["width": width, "height": height, "pixelRatio": 1.0, "touch": true]]
            }
            let reply = try await driver.send(
                "POST", "/session",
                [
                    "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]
                ])
            guard let value = reply["value"] as? [String: Any], let id = value["sessionId"] as? String else {
                throw Failure(description: "no WebDriver session: \(reply)")
            }
            driver.sessionID = id
            return driver
        } catch {
            stop(process)
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
    }

    func quit() async {
        if !sessionID.isEmpty { _ = try? await send("DELETE", "/session/\(sessionID)", nil) }
        Self.stop(process)
        try? FileManager.default.removeItem(at: profile)
    }

    /// chromedriver started from the test process may not heed SIGTERM; it gets SIGKILL.
    private static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    // MARK: Commands

    func open(_ url: String) async throws { _ = try await command("POST", "/url", ["url": url]) }

    var currentURL: String { get async throws { try await command("GET", "/url", nil) as? String ?? "" } }

    func find(_ css: String) async throws -> String {
        let value = try await command("POST", "/element", ["using": "css selector", "value": css])
        guard let element = value as? [String: Any], let id = element.values.first as? String else {
            throw Failure(description: "no element \(css)")
        }
        return id
    }

    /// How many elements match `css`: 0 when none does. WebDriver's Find Elements answers an
    /// empty list for that, and an error only for a real failure (a bad selector, a dead
    /// session), which throws here; so `count(css) == 0` says the element is absent, where a
    /// failed `find` could mean either.
    func count(_ css: String) async throws -> Int {
        let value = try await command("POST", "/elements", ["using": "css selector", "value": css])
        guard let elements = value as? [Any] else {
            throw Failure(description: "no list of elements for \(css): \(value ?? "nothing")")
        }
        return elements.count
    }

    /// Types into an element as a keyboard (or a wedge scanner) does; "\n" presses Enter.
    func type(_ text: String, into css: String) async throws {
        let element = try await find(css)
        let keys = text.replacingOccurrences(of: "\n", with: "\u{E007}")
        _ = try await command("POST", "/element/\(element)/value", ["text": keys])
    }

    func clear(_ css: String) async throws {
        let element = try await find(css)
        _ = try await command("POST", "/element/\(element)/clear", [:])
    }

    /// Clicks the element. Redrawn between finding and clicking (a live page), it is found
    /// again: a click on a stale element never reached the page, so it is not a second click.
    func click(_ css: String) async throws {
        for attempt in 1... {
            do {
                let element = try await find(css)
                _ = try await command("POST", "/element/\(element)/click", [:])
                return
            } catch let failure as Failure where failure.description.contains("stale element") && attempt < 5 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The element's text. A page that redraws itself live (the shop's order page) may replace
    /// the element between finding and reading it: then it is found again.
    func text(_ css: String) async throws -> String {
        for attempt in 1... {
            do {
                let element = try await find(css)
                return try await command("GET", "/element/\(element)/text", nil) as? String ?? ""
            } catch let failure as Failure where failure.description.contains("stale element") && attempt < 5 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        fatalError("unreachable")
    }

    func attribute(_ css: String, _ name: String) async throws -> String? {
        let element = try await find(css)
        return try await command("GET", "/element/\(element)/attribute/\(name)", nil) as? String
    }

    func isDisplayed(_ css: String) async throws -> Bool {
        let element = try await find(css)
        return try await command("GET", "/element/\(element)/displayed", nil) as? Bool ?? false
    }

    func script(_ source: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": source, "args": arguments])
    }

    /// Presses and releases one key on the keyboard (WebDriver's code for it: `\u{E004}` is Tab),
    /// as a person does, to whatever has focus.
    func press(_ key: String) async throws {
        let actions: [[String: Any]] = [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]
        _ = try await command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    func setWindow(width: Int, height: Int) async throws {
        _ = try await command("POST", "/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        guard let text = try await command("GET", "/screenshot", nil) as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }

    /// The page printed to PDF by the browser (A4 unless told otherwise).
    func printPDF() async throws -> Data {
        let options: [String: Any] = ["page": ["width": 21.0, "height": 29.7], "background": true]
        guard let text = try await command("POST", "/print", options) as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no PDF")
        }
        return data
    }

    /// Polls `condition` until it holds (page loads and form posts take their time), failing
    /// with `what` after `attempts` tries 100 ms apart.
    func waitFor(_ what: String, attempts: Int = 400, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<attempts {
            if (try? await condition()) == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "timed out waiting for \(what) at \((try? await currentURL) ?? "?")")
    }

    /// Waits until the element `css` exists.
    func waitFor(_ css: String) async throws {
        try await waitFor(css) { (try? await find(css)) != nil }
    }

    // MARK: Protocol

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        let reply = try await send(method, "/session/\(sessionID)\(path)", body)
        if let value = reply["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(method) \(path): \(error): \(value["message"] ?? "")")
        }
        return reply["value"]
    }

    /// One request on a fresh connection, `Connection: close`, read to the end. A plain socket on
    /// a thread of its own: chromedriver's headers (`Content-Length:249`, no space) trip the
    /// Linux URLSession, and a blocking call must not hold one of Swift's few pool threads while
    /// the service under test needs them.
    private func send(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
        let request = Data(head.utf8) + payload
        let port = self.port
        let reply: Data = try await Blocking.run { try Self.exchange(request, port: port) }
        guard let split = reply.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "\(method) \(path): no HTTP reply")
        }
        let data = reply[split.upperBound...]
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    private static func exchange(_ request: Data, port: Int) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect failed") }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try request.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send failed") }
                sent += n
            }
        }
        // chromedriver keeps the connection open whatever the request says: read the head, then
        // exactly Content-Length bytes of body.
        var reply = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = reply.firstRange(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: reply[..<end.lowerBound], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if reply.count - end.upperBound >= length { return reply }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return reply }
            guard n > 0 else { throw Failure(description: "recv failed (errno \(errno))") }
            reply.append(contentsOf: chunk[0..<n])
        }
    }

    private func waitUntilReady() async throws {
        for _ in 0..<200 {
            if let reply = try? await send("GET", "/status", nil), let value = reply["value"] as? [String: Any],
                value["ready"] as? Bool == true
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "chromedriver did not start")
    }

    /// A loopback port nobody is listening on right now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw Failure(description: "bind failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
