import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The mail sender in real `fulfilment serve` processes (issue 44), configured as an operator
/// does, from the environment: killed between the server taking a message and recording it.
@Suite("Mail: kill -9 between the mail server's 250 and the record, against real processes")
struct MailProcessTests {
    @Test("killed after the server took the receipt but before recording it: sent once more, with the same Message-ID, then recorded")
    func killBetweenSendAndRecord() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
        _ = try PickupKeys.generate(in: keys)
        defer { try? FileManager.default.removeItem(at: keys) }
        let password = try #require(server.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let mail = [
            "FULFILMENT_SMTP_URL": "smtp://\(server.username):\(password)@127.0.0.1:\(server.port)",
            "FULFILMENT_SMTP_CA_FILE": server.certificate.path, "FULFILMENT_MAIL_FROM": "Corner Chain <orders@corner.example>",
            "FULFILMENT_MAIL_POLL_MS": "100", "FULFILMENT_MAIL_LEASE_SECONDS": "2",
        ]
        try await withTestDatabase { database in
            // The first process holds every accepted message for a minute before recording it.
            let first = try await ServiceProcess.start(
                database: database, keysDir: keys, environment: mail.merging(["FULFILMENT_MAIL_RECORD_DELAY_MS": "60000"]) { $1 })
            defer {
                first.signal(SIGKILL)
                _ = first.exitStatus()
            }
            let app = first.app(database: database)
            let store = try await app.createStore()
            _ = try await app.placeOrder(store: store)
            var received: [TestSMTPServer.Received] = []
            for _ in 0..<400 where received.isEmpty {
                received = try server.received()
                if received.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(received.count == 1, "the first process sent nothing:\n\(first.log)")
            first.signal(SIGKILL)
            _ = try await first.waitForExit()
            #expect(try await app.messages(.orderPlaced).map { "\($0.status) \($0.attempts)" } == ["pending 1"])

            let second = try await ServiceProcess.start(database: database, keysDir: keys, environment: mail)
            defer {
                second.signal(SIGKILL)
                _ = second.exitStatus()
            }
            try await app.waitForMail(settled: 1, seconds: 30)
            received = try server.received()
            #expect(received.count == 2, "sent once more, no more")
            let ids = received.map { message in
                String(decoding: message.content, as: UTF8.self).split(separator: "\r\n").first { $0.hasPrefix("Message-ID:") }
            }
            #expect(ids[0] != nil && ids[0] == ids.last!)
            #expect(try await app.messages(.orderPlaced).map { "\($0.status) \($0.attempts)" } == ["sent 2"])
        }
    }
}
