import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP submission server for a test: Debian's aiosmtpd (`python3-aiosmtpd`) in a child
/// process on a free loopback port, with STARTTLS required (a self-signed certificate made for the
/// test with `openssl req -x509`) and AUTH PLAIN/LOGIN required. Each message it takes is written to
/// `mailFolder` as one JSON file: the envelope (`from`, `to`, `user`) and the bytes (`content`, base64).
///
/// Recipients whose local part is `temp-fail` are refused with 451, `perm-fail` with
/// "550 5.1.1 No such user here", so the transport's outcomes can be told apart.
///
/// The script is written out from this file (a `.py` beside it would be an unhandled file of the
/// test target). The server picks its own port and prints `ready PORT` once it listens: no race
/// for a port, no polling for a socket. `stop()` kills it; call it in a `defer`.
final class TestSMTPServer: Sendable {
    let pid: pid_t
    let port: Int
    let folder: URL
    let username: String
    let password: String

    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    var mailFolder: URL { folder.appendingPathComponent("mail") }

    private init(pid: pid_t, port: Int, folder: URL, username: String, password: String) {
        self.pid = pid
        self.port = port
        self.folder = folder
        self.username = username
        self.password = password
    }

    /// A message the server took.
    struct Received: Decodable {
        var from: String
        var to: [String]
        var user: String?
        var content: Data
    }

    /// Starts a server on `port` (0: any free one), as `username`/`password`.
    static func start(username: String = "shop-mailer", password: String = "s3cret:p@ss/word", port: Int = 0) async throws -> TestSMTPServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mail"), withIntermediateDirectories: true)
        let certificate = try await Subprocess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", folder.appendingPathComponent("key.pem").path, "-out", folder.appendingPathComponent("cert.pem").path,
            ])
        guard certificate.status == 0 else { throw TestSMTPServerError("openssl req failed: \(certificate.errors)") }
        let script = folder.appendingPathComponent("smtp_server.py")
        try Data(serverScript.utf8).write(to: script)
        let output = folder.appendingPathComponent("server.out")
        let pid = try Subprocess.start(
            "/usr/bin/python3", ["-u", script.path, folder.path, String(port)],
            environment: ["SMTP_TEST_USER": username, "SMTP_TEST_PASSWORD": password, "PYTHONDONTWRITEBYTECODE": "1"],
            stdout: output.path, stderr: output.path)
        for _ in 0..<400 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }), let port = Int(line.dropFirst(6)) {
                return TestSMTPServer(pid: pid, port: port, folder: folder, username: username, password: password)
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw TestSMTPServerError("the SMTP server exited (\(status)) before it was ready:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, nil, 0)
        throw TestSMTPServerError("the SMTP server was not ready within 10 s")
    }

    /// Kills the server, reaps it and removes its folder.
    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        try? FileManager.default.removeItem(at: folder)
    }

    /// The messages taken so far, oldest first.
    func received() throws -> [Received] {
        let names = try FileManager.default.contentsOfDirectory(atPath: mailFolder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { try JSONDecoder().decode(Received.self, from: Data(contentsOf: mailFolder.appendingPathComponent($0))) }
    }

    /// What the server printed (its errors, for a failing test's message).
    var log: String { (try? String(contentsOf: folder.appendingPathComponent("server.out"), encoding: .utf8)) ?? "" }

    private static let serverScript = #"""
        # A test SMTP submission server (aiosmtpd): STARTTLS and AUTH required; writes each message
        # to FOLDER/mail as JSON; prints "ready PORT" once it listens on 127.0.0.1.
        import asyncio, base64, json, os, signal, ssl, sys
        from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

        folder = sys.argv[1]
        user = os.environ["SMTP_TEST_USER"].encode()
        password = os.environ["SMTP_TEST_PASSWORD"].encode()
        counter = 0

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login == user and auth_data.password == password
            return AuthResult(success=ok, handled=False, auth_data=auth_data)

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                local = address.split("@")[0]
                if local == "temp-fail":
                    return "451 4.3.0 Mailbox busy, try again later"
                if local == "perm-fail":
                    return "550 5.1.1 No such user here"
                envelope.rcpt_tos.append(address)
                return "250 2.1.5 OK"

            async def handle_DATA(self, server, session, envelope):
                global counter
                counter += 1
                login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
                record = {"from": envelope.mail_from, "to": envelope.rcpt_tos, "user": login,
                          "content": base64.b64encode(envelope.original_content).decode()}
                path = os.path.join(folder, "mail", "%06d.json" % counter)
                with open(path + ".tmp", "w") as out:
                    json.dump(record, out)
                os.replace(path + ".tmp", path)
                return "250 2.0.0 Queued as %06d" % counter

        async def main():
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
            handler = Handler()
            loop = asyncio.get_running_loop()
            server = await loop.create_server(
                lambda: SMTP(handler, hostname="localhost", tls_context=context, require_starttls=True,
                             auth_required=True, auth_require_tls=True, authenticator=authenticator),
                host="127.0.0.1", port=int(sys.argv[2]) if len(sys.argv) > 2 else 0, reuse_address=True)
            stop = asyncio.Event()
            loop.add_signal_handler(signal.SIGTERM, stop.set)
            print("ready %d" % server.sockets[0].getsockname()[1], flush=True)
            await stop.wait()
            server.close()

        asyncio.run(main())
        """#
}

struct TestSMTPServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
