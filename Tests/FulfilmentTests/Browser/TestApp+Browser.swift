import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Someone who signs in through the console's form.
struct ConsoleUser: Sendable {
    var email: String
    var password: String
    var name: String
}

extension TestApp {
    /// The address a browser on this machine reaches the service under test at.
    var baseURL: String { "http://127.0.0.1:\(port ?? 0)" }

    /// One of the chain's admins (as `fulfilment user create --role admin` makes one): the API
    /// session and the account a browser signs in with.
    func adminAccount() async throws -> (session: Session, user: ConsoleUser) {
        let session = try await signInAdmin()
        let email = try await sql("SELECT email FROM users WHERE id = $1", [session.userID], on: database)[0][0]!
        return (session, ConsoleUser(email: email, password: "admin password", name: "Admin"))
    }

    /// A staff member or manager of `store`, created directly (as the CLI does).
    func storeAccount(_ role: Role, store: String, name: String? = nil) async throws -> ConsoleUser {
        let user = ConsoleUser(
            email: "\(role.rawValue)-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "console password",
            name: name ?? "Test \(role.rawValue)")
        let database = try FulfilmentDomain.Database(connection: self.database, logger: Logger(label: "test"))
        let accounts = Accounts(database: database, hasher: PasswordHasher(cost: 4))
        try await withRunning(database) {
            _ = try await accounts.createStoreAccount(
                email: user.email, name: user.name, password: user.password, role: role, store: StoreID(store)!, logger: Logger(label: "test"))
        }
        return user
    }

    /// A customer registered through the API, with the password they can sign in with.
    func customerAccount() async throws -> (ConsoleUser, Session) {
        let email = "cust-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let session = try await registerCustomer(email: email, password: "correct horse")
        return (ConsoleUser(email: email, password: "correct horse", name: "Test Customer"), session)
    }

    /// Signs in through the console's form (as a browser would post it) and returns the cookie.
    func consoleCookie(_ user: ConsoleUser) async throws -> String {
        let reply = try await form(.post, "/signin", ["email": user.email, "password": user.password])
        guard reply.status == .seeOther, let setCookie = reply.headers[.setCookie],
            let pair = setCookie.split(separator: ";").first
        else { throw TestSetupError("console sign-in failed: \(reply.status) \(reply.text)") }
        return String(pair)
    }

    /// Sends a form post (or a GET) with the console cookie, as the browser does.
    @discardableResult
    func form(
        _ method: HTTPRequest.Method, _ path: String, _ fields: [String: String] = [:], cookie: String? = nil,
        origin: String? = nil
    ) async throws -> TestReply {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        if let origin { headers[HTTPField.Name("Origin")!] = origin }
        var body: String?
        if method == .post {
            headers[.contentType] = "application/x-www-form-urlencoded"
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                .joined(separator: "&")
        }
        return try await request(method, path, rawBody: body, headers: headers)
    }

    /// The anti-forgery token of the page at `path`, as its forms carry it.
    func csrfToken(on path: String, cookie: String) async throws -> String {
        let page = try await form(.get, path, cookie: cookie).text
        guard let range = page.range(of: "name=\"_csrf\" value=\"") else { throw TestSetupError("no _csrf on \(path)") }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// Runs `body` with a fresh headless Chromium, and always closes it.
func withBrowser<T: Sendable>(
    width: Int = 1280, height: Int = 900, mobile: Bool = false, _ body: (WebDriver) async throws -> T
) async throws -> T {
    await BrowserSlots.shared.acquire()
    defer { Task { await BrowserSlots.shared.release() } }
    let driver = try await WebDriver.start(width: width, height: height, mobile: mobile)
    do {
        let result = try await body(driver)
        await driver.quit()
        return result
    } catch {
        await driver.quit()
        throw error
    }
}

/// At most five Chromiums at once across the whole run: a browser is the heaviest thing a test
/// starts, and a dozen at once on a small machine starve the database every other test waits on
/// (they then fail with timeouts that say nothing about the product).
actor BrowserSlots {
    static let shared = BrowserSlots(count: Int(ProcessInfo.processInfo.environment["FULFILMENT_TEST_BROWSERS"] ?? "") ?? 5)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = max(1, count) }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// Where screenshots and PDFs of the console go, for a person to look at:
/// `.build/test-output/console/` (or `$CONSOLE_SCREENSHOTS`).
enum TestOutput {
    static let directory: URL = {
        let url =
            ProcessInfo.processInfo.environment["CONSOLE_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/test-output/console")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @discardableResult
    static func save(_ data: Data, as name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}

extension WebDriver {
    /// Saves a screenshot of the page under the test output.
    @discardableResult
    func snapshot(_ name: String) async throws -> URL {
        try TestOutput.save(try await screenshot(), as: "\(name).png")
    }

    /// Whether this browser can read any of `formats` (BarcodeDetector's names) off a camera.
    func canScan(_ formats: [String]) async throws -> Bool {
        let list = formats.map { "'\($0)'" }.joined(separator: ", ")
        return try await script(
            """
            return ('BarcodeDetector' in window) ? BarcodeDetector.getSupportedFormats().then(function (f) {
              return [\(list)].some(function (x) { return f.indexOf(x) >= 0; }); }) : false
            """) as? Bool ?? false
    }

    /// Signs in through the form on `/`.
    func signIn(_ user: ConsoleUser, at base: String) async throws {
        try await open(base + "/")
        try await waitFor("#email")
        try await type(user.email, into: "#email")
        try await type(user.password + "\n", into: "#password")
        try await waitFor("#sign-out")
    }
}
