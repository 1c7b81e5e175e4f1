import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A forgotten password and a changed email address (issue 44), through the API, the links read
/// out of the mail a real SMTP server received.
@Suite("Mail: password reset and a changed email address")
struct AccountMailTests {
    /// The token of the newest link to `path` in `address`'s mail.
    static func link(_ server: TestSMTPServer, _ address: String, path: String) async throws -> String? {
        let mails = try await MailOutboxTests.mailbox(server, address)
        for (mail, _) in mails.reversed() {
            guard let range = mail.text.range(of: "https://shop.corner.example\(path)?token=") else { continue }
            return String(mail.text[range.upperBound...].prefix { !$0.isWhitespace })
        }
        return nil
    }

    @Test("a reset link sets a new password once, ends every session, and a newer link ends the older")
    func reset() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: MailOutboxTests.configure(server)) { app in
            let email = "forgetful-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let customer = try await app.registerCustomer(email: email)
            let asked = try await app.request(.post, "/v1/password-reset", json: ["email": .string(email.uppercased())])
            #expect(asked.status == .accepted)
            let unknown = try await app.request(.post, "/v1/password-reset", json: ["email": "nobody-here@example.com"])
            #expect(unknown.status == .accepted)
            #expect(unknown.json == asked.json, "the same answer whether or not the address has an account")
            try await app.waitForMail(settled: 1)
            #expect(try await app.messages(.passwordReset).map(\.recipient) == [email])
            let first = try #require(try await Self.link(server, email, path: "/password-reset/confirm"))
            #expect(
                try await sql("SELECT count(*) FROM password_resets WHERE token_hash = sha256(convert_to($1, 'UTF8'))", [first], on: app.database)[0][
                    0] == "1")

            // A second request: the first link stops working.
            #expect(try await app.request(.post, "/v1/password-reset", json: ["email": .string(email)]).status == .accepted)
            try await app.waitForMail(settled: 2)
            let second = try #require(try await Self.link(server, email, path: "/password-reset/confirm"))
            #expect(second != first)
            let stale = try await app.request(
                .post, "/v1/password-reset/confirm", json: ["token": .string(first), "newPassword": "brand new password"])
            #expect(stale.status == .gone)
            #expect(stale.json["error"]["details"]["reason"].string == "superseded")

            let short = try await app.request(.post, "/v1/password-reset/confirm", json: ["token": .string(second), "newPassword": "short"])
            #expect(short.errorCode == "password_too_short")
            let done = try await app.request(
                .post, "/v1/password-reset/confirm", json: ["token": .string(second), "newPassword": "brand new password"])
            #expect(done.status == .noContent, "\(done.text)")
            #expect(try await app.request(.get, "/v1/me", token: customer.token).status == .unauthorized, "every session ended")
            let old = try await app.request(.post, "/v1/auth/login", json: ["email": .string(email), "password": "correct horse"])
            #expect(old.status == .unauthorized)
            let new = try await app.request(.post, "/v1/auth/login", json: ["email": .string(email), "password": "brand new password"])
            #expect(new.status == .ok)

            let twice = try await app.request(
                .post, "/v1/password-reset/confirm", json: ["token": .string(second), "newPassword": "another password"])
            #expect(twice.json["error"]["details"]["reason"].string == "used")
            let forged = try await app.request(
                .post, "/v1/password-reset/confirm", json: ["token": .string(String(second.dropLast(2)) + "AA"), "newPassword": "another password"])
            #expect(forged.status == .gone)
            #expect(forged.json["error"]["details"]["reason"].string == "unknown")
        }
    }

    @Test("an expired link is refused, and requests are throttled per address")
    func expiredAndThrottled() async throws {
        try await withApp(configure: MailOutboxTests.configure(nil)) { app in
            let customer = try await app.registerCustomer()
            let token = try await app.linkRow(.passwordReset, for: customer.userID, expiresIn: -1)
            let expired = try await app.request(
                .post, "/v1/password-reset/confirm", json: ["token": .string(token), "newPassword": "brand new password"])
            #expect(expired.json["error"]["details"]["reason"].string == "expired")
            let address = "nobody-\(UUID().uuidString.prefix(6))@example.com"
            for _ in 0..<PasswordResets.perAddress {
                #expect(try await app.request(.post, "/v1/password-reset", json: ["email": .string(address)]).status == .accepted)
            }
            let over = try await app.request(.post, "/v1/password-reset", json: ["email": .string(address)])
            #expect(over.status == .tooManyRequests)
            #expect(over.errorCode == "too_many_requests")
            #expect(over.headers[.retryAfter] != nil)
        }
    }

    @Test("a new email address takes effect only when confirmed; the old one is told; another account cannot take it")
    func emailChange() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: MailOutboxTests.configure(server)) { app in
            let old = "old-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let new = "new-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let customer = try await app.registerCustomer(email: old)
            let changed = try await app.request(.patch, "/v1/me", json: ["name": "Keisha Brown", "email": .string(new)], token: customer.token)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(changed.json["name"].string == "Keisha Brown")
            #expect(changed.json["email"].string == old)
            #expect(changed.json["pendingEmail"].string == new)
            try await app.waitForMail(settled: 2)
            let notice = try await MailOutboxTests.mailbox(server, old).map(\.0)
            #expect(notice.count == 1)
            #expect(notice.first?.text.contains(new) == true)
            let token = try #require(try await Self.link(server, new, path: "/account/email/confirm"))

            let taken = try await app.request(.patch, "/v1/me", json: ["email": .string(old)], token: try await app.registerCustomer().token)
            #expect(taken.errorCode == "email_taken")

            #expect(try await app.request(.post, "/v1/me/email/confirm", json: ["token": .string(token)]).status == .noContent)
            let me = try await app.request(.get, "/v1/me", token: customer.token)
            #expect(me.json["email"].string == new)
            #expect(!me.json.has("pendingEmail"))
            #expect(try await app.request(.post, "/v1/me/email/confirm", json: ["token": .string(token)]).status == .gone)
            let signIn = try await app.request(.post, "/v1/auth/login", json: ["email": .string(new), "password": "correct horse"])
            #expect(signIn.status == .ok)
        }
    }

    @Test("one click from a mail program unsubscribes, from another site and without signing in; a forged link does nothing")
    func oneClickUnsubscribe() async throws {
        try await withApp(configure: MailOutboxTests.configure(nil)) { app in
            let customer = try await app.registerCustomer()
            let token = LinkToken.make(.unsubscribe, id: UUID(uuidString: customer.userID)!, key: DataKeyring.processWide.current)
            let path = "/unsubscribe?kind=collection_reminder&token=\(token)"
            let page = try await app.form(.get, path)
            #expect(page.status == .ok)
            #expect(page.text.contains("id=\"unsubscribe-button\""))
            let forged = try await app.request(
                .post, "/unsubscribe?kind=collection_reminder&token=\(String(token.dropLast(3)) + "abc")", rawBody: "List-Unsubscribe=One-Click",
                headers: [.contentType: "application/x-www-form-urlencoded", .init("Sec-Fetch-Site")!: "cross-site"])
            #expect(forged.status == .badRequest)
            #expect(try await app.request(.get, "/v1/me", token: customer.token).json["messagePreferences"]["reminders"].bool == true)
            let clicked = try await app.request(
                .post, path, rawBody: "List-Unsubscribe=One-Click",
                headers: [.contentType: "application/x-www-form-urlencoded", .init("Sec-Fetch-Site")!: "cross-site"])
            #expect(clicked.status == .ok, "\(clicked.text)")
            #expect(try await app.request(.get, "/v1/me", token: customer.token).json["messagePreferences"]["reminders"].bool == false)
        }
    }

    @Test("erasing an account keeps the record of its mail without the address, and never sends what waited")
    func erasure() async throws {
        try await withApp(configure: MailOutboxTests.configure(nil)) { app in
            let store = try await app.createStore()
            let (customer, order, _) = try await app.placeOrder(store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            #expect(try await app.transition(order["id"].string!, to: "cancelled", by: staff).status == .ok)
            #expect(try await app.request(.delete, "/v1/me", json: ["password": "correct horse"], token: customer.token).status == .noContent)
            let kept = try await app.messages()
            #expect(kept.count == 2)
            #expect(kept.allSatisfy { $0.recipient == "erased-\(customer.userID)@erased.invalid" && $0.status == "suppressed" })
        }
    }
}
