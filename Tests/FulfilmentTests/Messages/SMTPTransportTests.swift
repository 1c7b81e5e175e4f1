import Foundation
import Testing

@testable import FulfilmentDomain

/// The SMTP transport (issue 44) against a real submission server (aiosmtpd, STARTTLS and AUTH
/// required), and the parsing of its settings. No database.
@Suite("SMTP transport")
struct SMTPTransportTests {
    /// A message whose lines include some starting with "." (dot-stuffing) and a lone ".".
    static let message = Data(
        [
            "From: Shop <orders@shop.example>",
            "To: Ada <ada@customer.example>",
            "Subject: Your order is ready to collect",
            "",
            "Hello Ada,",
            ".this line starts with a dot",
            ".",
            "..two dots",
            "Bye.",
            "",
        ].joined(separator: "\r\n").utf8)

    func transport(_ server: TestSMTPServer, password: String? = nil, port: Int? = nil) throws -> SMTPTransport {
        let secret = (password ?? server.password).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var settings = try SMTPSettings(
            url: "smtp://\(server.username):\(secret)@127.0.0.1:\(port ?? server.port)", caFile: server.certificate.path)
        settings.connectTimeout = .seconds(5)
        settings.totalTimeout = .seconds(20)
        return SMTPTransport(settings: settings)
    }

    @Test("a message sent over STARTTLS with AUTH arrives byte for byte, with its envelope")
    func deliversOverStartTLS() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let outcome = try await transport(server).send(
            from: "orders@shop.example", to: ["ada@customer.example", "desk@shop.example"], message: Self.message)
        guard case .accepted(let reply) = outcome else {
            Issue.record("not accepted: \(outcome)\n\(server.log)")
            return
        }
        #expect(reply.hasPrefix("250"))
        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].from == "orders@shop.example")
        #expect(received[0].to == ["ada@customer.example", "desk@shop.example"])
        #expect(received[0].user == server.username)
        #expect(received[0].content == Self.message)
    }

    @Test("bare line feeds are sent as CRLF")
    func normalisesLineEnds() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let outcome = try await transport(server).send(
            from: "orders@shop.example", to: ["ada@customer.example"], message: Data("Subject: hi\n\n.dot\nend".utf8))
        guard case .accepted = outcome else {
            Issue.record("not accepted: \(outcome)")
            return
        }
        #expect(try server.received().map(\.content) == [Data("Subject: hi\r\n\r\n.dot\r\nend\r\n".utf8)])
    }

    @Test("a wrong password is refused for good, and nothing arrives")
    func wrongPassword() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let outcome = try await transport(server, password: "not-the-password").send(
            from: "orders@shop.example", to: ["ada@customer.example"], message: Self.message)
        guard case .permanent(let failure) = outcome else {
            Issue.record("not permanent: \(outcome)")
            return
        }
        #expect(failure.code == 535)
        #expect(!failure.description.contains("not-the-password"))
        #expect(try server.received().isEmpty)
    }

    @Test("a 451 reply is a transient failure")
    func temporaryFailure() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let outcome = try await transport(server).send(
            from: "orders@shop.example", to: ["temp-fail@customer.example"], message: Self.message)
        guard case .transient(let failure) = outcome else {
            Issue.record("not transient: \(outcome)")
            return
        }
        #expect(failure.code == 451)
        #expect(failure.reply.contains("try again later"))
        #expect(try server.received().isEmpty)
    }

    @Test("a 550 reply is a permanent failure, with the server's words")
    func permanentFailure() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let outcome = try await transport(server).send(
            from: "orders@shop.example", to: ["perm-fail@customer.example"], message: Self.message)
        guard case .permanent(let failure) = outcome else {
            Issue.record("not permanent: \(outcome)")
            return
        }
        #expect(failure.code == 550)
        #expect(failure.reply.contains("No such user here"))
        #expect(try server.received().isEmpty)
    }

    @Test("a server not listening is a transient failure")
    func notListening() async throws {
        let server = try await TestSMTPServer.start()
        let transport = try transport(server)
        server.stop()
        let outcome = try await transport.send(from: "orders@shop.example", to: ["ada@customer.example"], message: Self.message)
        guard case .transient(let failure) = outcome else {
            Issue.record("not transient: \(outcome)")
            return
        }
        #expect(failure.code == nil)
    }

    @Test("a server certificate that is not trusted is a permanent failure, not a plaintext fallback")
    func untrustedCertificate() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let settings = try SMTPSettings(url: "smtp://\(server.username):x@127.0.0.1:\(server.port)")
        let outcome = try await SMTPTransport(settings: settings).send(
            from: "orders@shop.example", to: ["ada@customer.example"], message: Self.message)
        guard case .permanent = outcome else {
            Issue.record("not permanent: \(outcome)")
            return
        }
        #expect(try server.received().isEmpty)
    }

    @Test("an address with a line break or angle bracket is not sent")
    func refusesInjectedAddresses() async throws {
        let transport = SMTPTransport(settings: try SMTPSettings(url: "smtp://localhost:25"))
        await #expect(throws: SMTPTransportError.self) {
            try await transport.send(from: "a@b.example", to: ["c@d.example>\r\nRCPT TO:<e@f.example"], message: Self.message)
        }
        await #expect(throws: SMTPTransportError.self) {
            try await transport.send(from: "a@b.example", to: [], message: Self.message)
        }
    }
}

@Suite("SMTP settings")
struct SMTPSettingsTests {
    @Test("smtp:// with a user is submission with STARTTLS required; user and password percent-decoded")
    func submission() throws {
        let settings = try SMTPSettings(url: "smtp://mailer%40shop.example:p%40ss%3Aw%2Fd@mail.example.com:587")
        #expect(settings.security == .startTLS)
        #expect(settings.host == "mail.example.com")
        #expect(settings.port == 587)
        #expect(settings.username == "mailer@shop.example")
        #expect(settings.password?.value == "p@ss:w/d")
        #expect(try SMTPSettings(url: "smtp://u:p@mail.example.com").port == 587)
    }

    @Test("smtps:// is implicit TLS, on 465 by default")
    func implicitTLS() throws {
        let settings = try SMTPSettings(url: "smtps://user:password@mail.example.com:465")
        #expect(settings.security == .implicitTLS)
        #expect(settings.port == 465)
        #expect(try SMTPSettings(url: "smtps://user:password@mail.example.com").port == 465)
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtps://u:p@mail.example.com?tls=none") }
    }

    @Test("smtp://localhost:25 is a plaintext local relay, for loopback hosts only")
    func localRelay() throws {
        for url in ["smtp://localhost:25", "smtp://127.0.0.1:25", "smtp://[::1]:25", "smtp://localhost"] {
            let settings = try SMTPSettings(url: url)
            #expect(settings.security == .plaintext, "\(url)")
            #expect(settings.port == 25, "\(url)")
            #expect(settings.username == nil)
        }
        // A remote host with no user still gets STARTTLS required; plaintext is refused.
        #expect(try SMTPSettings(url: "smtp://mail.example.com:25").security == .startTLS)
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtp://mail.example.com:25?tls=none") }
    }

    @Test("a password in plaintext to a host not on loopback is refused")
    func plaintextAuthRefused() throws {
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtp://user:password@mail.example.com:25?tls=none") }
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtp://user:password@10.0.0.5:25?tls=none") }
        // On loopback it is the operator's own machine.
        #expect(try SMTPSettings(url: "smtp://user:password@127.0.0.1:25?tls=none").security == .plaintext)
    }

    @Test("other schemes, paths and parameters are refused")
    func refusals() {
        for url in ["http://mail.example.com", "smtp://", "smtp://mail.example.com/path", "smtp://mail.example.com?x=1", "not a url"] {
            #expect(throws: SMTPSettingsError.self, "\(url)") { try SMTPSettings(url: url) }
        }
    }

    @Test("the password comes from a file, its trailing newline trimmed")
    func passwordFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-password-\(UUID().uuidString)")
        try Data("from-a-file\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let settings = try SMTPSettings(url: "smtp://mailer@mail.example.com:587", passwordFile: file.path)
        #expect(settings.password?.value == "from-a-file")
        #expect(throws: SMTPSettingsError.self) {
            try SMTPSettings(url: "smtp://mailer:other@mail.example.com:587", passwordFile: file.path)
        }
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtp://mail.example.com:587", passwordFile: file.path) }
        #expect(throws: SMTPSettingsError.self) { try SMTPSettings(url: "smtp://m@mail.example.com", passwordFile: file.path + ".missing") }
    }

    @Test("the password is never in the description, a dump or an error")
    func passwordNeverShown() throws {
        let settings = try SMTPSettings(url: "smtp://mailer:Hunter2Secret@mail.example.com:587")
        #expect(settings.description == "smtp://mailer@mail.example.com:587 (STARTTLS required, password set)")
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [settings.description, String(describing: settings), String(reflecting: settings), dumped] {
            #expect(!text.contains("Hunter2Secret"), "\(text)")
        }
        do {
            _ = try SMTPSettings(url: "smtp://mailer:Hunter2Secret@mail.example.com:25?tls=none")
            Issue.record("plaintext AUTH to a remote host was accepted")
        } catch {
            #expect(!error.description.contains("Hunter2Secret"))
        }
    }
}
