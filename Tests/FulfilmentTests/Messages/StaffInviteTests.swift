import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a manager adds a new starter by their email address, never choosing a password for
/// them. The invitation reaches a real SMTP server; its link sets the starter's own password
/// once, and nobody signs in as them before that.
@Suite("People: a new starter invited by email")
struct StaffInviteTests {
    @Test("invited without a password: no sign-in until the emailed link sets theirs; once; another store or a taken address refused")
    func invite() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: MailOutboxTests.configure(server)) { app in
            let store = try await app.createStore(code: "INV-1", name: "Half Way Tree")
            let manager = try await app.signIn(role: .manager, store: store)
            let email = "new-starter-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let invited = try await app.request(
                .post, "/v1/stores/\(store)/staff", json: ["email": .string(email), "name": "Nadia Starter", "role": "staff"], token: manager.token)
            #expect(invited.status == .created, "\(invited.text)")
            #expect(invited.json["role"].string == "staff" && invited.json["storeId"].string == store)
            // Nothing signs in as them yet, not even an empty password.
            for password in ["", "!", "correct horse"] {
                #expect(
                    try await app.request(.post, "/v1/auth/login", json: ["email": .string(email), "password": .string(password)]).status
                        != .ok)
            }
            try await app.waitForMail(settled: 1)
            let mail = try #require(try await MailOutboxTests.mailbox(server, email).last?.0)
            #expect(mail.text.contains("added you to Half Way Tree as staff"))
            #expect(mail.text.contains("7 days"))
            let token = try #require(try await AccountMailTests.link(server, email, path: "/password-reset/confirm"))
            #expect(
                try await sql(
                    "SELECT (expires_at - now() > interval '6 days 23 hours')::text FROM password_resets WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
                    [token], on: app.database) == [["true"]])

            let set = try await app.request(.post, "/v1/password-reset/confirm", json: ["token": .string(token), "newPassword": "my own password"])
            #expect(set.status == .noContent, "\(set.text)")
            let signedIn = try await app.request(.post, "/v1/auth/login", json: ["email": .string(email), "password": "my own password"])
            #expect(signedIn.status == .ok)
            let again = try await app.request(.post, "/v1/password-reset/confirm", json: ["token": .string(token), "newPassword": "another one"])
            #expect(again.json["error"]["details"]["reason"].string == "used")

            // The same address twice writes nothing more; another store's manager cannot invite here.
            let twice = try await app.request(
                .post, "/v1/stores/\(store)/staff", json: ["email": .string(email), "name": "Twice", "role": "staff"], token: manager.token)
            #expect(twice.status == .conflict)
            let stranger = try await app.signIn(role: .manager, store: try await app.createStore())
            let elsewhere = try await app.request(
                .post, "/v1/stores/\(store)/staff",
                json: ["email": .string("x-\(UUID().uuidString.prefix(6))@example.com"), "name": "X", "role": "staff"],
                token: stranger.token)
            #expect(elsewhere.status == .forbidden)
            #expect(try await sql("SELECT count(*)::text FROM messages WHERE kind = 'staff_invite'", on: app.database) == [["1"]])
        }
    }
}
