import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A user changes their password")
struct PasswordChangeTests {
    func change(_ current: String, to new: String, confirmation: String? = nil) -> JSONValue {
        ["currentPassword": .string(current), "newPassword": .string(new), "newPasswordConfirmation": .string(confirmation ?? new)]
    }

    @Test("changing the password ends every other session of theirs and keeps this one")
    func otherSessionsEnd() async throws {
        try await withApp { app in
            let phone = try await app.registerCustomer(email: "ann@example.com", password: "old password")
            let laptop = try await app.token("ann@example.com", "old password")
            let tablet = try await app.token("ann@example.com", "old password")
            let someoneElse = try await app.registerCustomer()

            let reply = try await app.request(.post, "/v1/me/password", json: change("old password", to: "new password"), token: phone.token)
            #expect(reply.status == .noContent)

            #expect(try await app.works(phone.token))
            #expect(try await app.works(laptop) == false)
            #expect(try await app.works(tablet) == false)
            #expect(try await app.works(someoneElse.token))
            #expect(try await app.login("ann@example.com", "old password").status == .unauthorized)
            #expect(try await app.login("ann@example.com", "new password").status == .ok)
            let ended = try await sql("SELECT count(*) FROM sessions WHERE ended_reason = 'password_changed'", on: app.database)
            #expect(ended[0][0] == "2")
        }
    }

    @Test("a wrong current password changes nothing and ends nothing")
    func wrongCurrentPassword() async throws {
        try await withApp { app in
            let phone = try await app.registerCustomer(email: "bob@example.com", password: "old password")
            let laptop = try await app.token("bob@example.com", "old password")
            let reply = try await app.request(.post, "/v1/me/password", json: change("not my password", to: "new password"), token: phone.token)
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorCode == "wrong_password")
            #expect(reply.json["error"]["details"]["field"].string == "currentPassword")
            #expect(try await app.works(laptop))
            #expect(try await app.login("bob@example.com", "old password").status == .ok)
        }
    }

    @Test("the new password meets the registration rules, named by this request's fields")
    func newPasswordRules() async throws {
        try await withApp { app in
            let session = try await app.registerCustomer(email: "cy@example.com", password: "old password")
            let short = try await app.request(.post, "/v1/me/password", json: change("old password", to: "short"), token: session.token)
            #expect(short.errorCode == "password_too_short")
            #expect(short.json["error"]["details"]["field"].string == "newPassword")
            let mismatch = try await app.request(
                .post, "/v1/me/password", json: change("old password", to: "new password", confirmation: "new passwerd"), token: session.token)
            #expect(mismatch.errorCode == "password_mismatch")
            #expect(mismatch.json["error"]["details"]["field"].string == "newPasswordConfirmation")
            let missing = try await app.request(.post, "/v1/me/password", json: ["currentPassword": "old password"], token: session.token)
            #expect(missing.status == .unprocessableContent)
            #expect(try await app.request(.post, "/v1/me/password", json: change("old password", to: "new password")).status == .unauthorized)
            #expect(try await app.login("cy@example.com", "old password").status == .ok)
        }
    }

    @Test("guessing the current password through a stolen session is throttled like sign-in")
    func guessesThrottled() async throws {
        try await withApp { app in
            let stolen = try await app.registerCustomer(email: "dee@example.com", password: "old password")
            for guess in 0..<5 {
                let reply = try await app.request(.post, "/v1/me/password", json: change("guess \(guess)", to: "new password"), token: stolen.token)
                #expect(reply.errorCode == "wrong_password")
            }
            let throttled = try await app.request(.post, "/v1/me/password", json: change("old password", to: "new password"), token: stolen.token)
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] != nil)
        }
    }

    @Test("two changes at once: one wins, the other is told, and only the winner's password works")
    func concurrentChanges() async throws {
        // A slower hash, so both requests have checked the current password before either writes.
        try await withApp(configure: {
            $0.bcryptCost = 10
            $0.bcryptQueue = .init(slots: 4, waiting: 8)
        }) { app in
            let session = try await app.registerCustomer(email: "eve@example.com", password: "old password")
            let changes = ["first new password", "second new password"].map { new in
                SeparateConnections.Request(path: "/v1/me/password", json: change("old password", to: new), token: session.token)
            }
            let replies = try await SeparateConnections.race(changes, port: try app.livePort)
            let statuses = replies.map(\.status.code).sorted()
            #expect(statuses == [204, 409] || statuses == [204, 422], "\(statuses)")
            let first = try await app.login("eve@example.com", "first new password").status == .ok
            let second = try await app.login("eve@example.com", "second new password").status == .ok
            #expect(first != second, "exactly one new password took")
            #expect(first == (replies[0].status == .noContent))
        }
    }
}
