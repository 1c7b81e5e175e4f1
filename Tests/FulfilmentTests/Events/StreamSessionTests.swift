import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A live stream is its session's (issue 24): it ends when the session does, however it ends,
/// and one session cannot hold open more than its share of the instances' connections.
/// Heartbeats are set to a minute here, so only the session's end can explain a stream ending.
@Suite("Events: a live stream ends with its session; a session has only so many open")
struct StreamSessionTests {
    static func quiet(_ configuration: inout AppConfiguration) { configuration.eventHeartbeat = .seconds(60) }

    static func storeStream(_ app: TestApp, store: String, token: String) async throws -> SSEClient {
        let stream = try await EventStreamTests.open(app, "/v1/stores/\(store)/events", token: token)
        #expect(stream.status == 200)
        return stream
    }

    @Test("logout ends the session's open streams within 5 s")
    func logout() async throws {
        try await withApp(configure: Self.quiet) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let stream = try await Self.storeStream(app, store: store, token: staff.token)
            #expect(try await app.request(.post, "/v1/auth/logout", token: staff.token).status == .noContent)
            try await stream.wait(seconds: 5) { $0.hasEnded }
        }
    }

    @Test("disabling the account ends its streams, the order stream of a customer's too on logout")
    func disabledAccount() async throws {
        try await withApp(configure: Self.quiet) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let stream = try await Self.storeStream(app, store: store, token: staff.token)
            let managerStream = try await Self.storeStream(app, store: store, token: manager.token)
            #expect(try await app.request(.post, "/v1/stores/\(store)/staff/\(staff.userID)/disable", token: manager.token).status == .ok)
            try await stream.wait(seconds: 5) { $0.hasEnded }
            #expect(!managerStream.hasEnded, "another user's stream goes on")

            let (customer, order, _) = try await app.placeOrder(store: store)
            let orderStream = try await EventStreamTests.open(app, "/v1/orders/\(order["id"].string!)/events", token: customer.token)
            try await orderStream.waitForEvents(1)
            #expect(try await app.request(.post, "/v1/auth/logout", token: customer.token).status == .noContent)
            try await orderStream.wait(seconds: 5) { $0.hasEnded }
        }
    }

    @Test("a password change ends the other sessions' streams and keeps the changing session's")
    func passwordChange() async throws {
        try await withApp(configure: Self.quiet) { app in
            let store = try await app.createStore()
            let phone = try await app.signIn(role: .staff, store: store, password: "old password")
            let laptop = try await app.token(try await app.email(of: phone), "old password")
            let onLaptop = try await Self.storeStream(app, store: store, token: laptop)
            let onPhone = try await Self.storeStream(app, store: store, token: phone.token)
            let change: JSONValue = ["currentPassword": "old password", "newPassword": "new password", "newPasswordConfirmation": "new password"]
            #expect(try await app.request(.post, "/v1/me/password", json: change, token: phone.token).status == .noContent)
            try await onLaptop.wait(seconds: 5) { $0.hasEnded }
            // The phone's stream still carries events.
            _ = try await app.placeOrder(store: store)
            try await onPhone.waitForEvents(1)
            #expect(!onPhone.hasEnded)
        }
    }

    @Test("a session that expires while its stream is open ends the stream within 5 s of expiring")
    func expiry() async throws {
        try await withApp(configure: Self.quiet) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            // Its maximum age runs out three seconds from now, and nobody tells the service.
            let limit = SessionLifetime().maximumSeconds
            _ = try await sql(
                "UPDATE sessions SET created_at = now() - make_interval(secs => $1::int - 3) WHERE user_id = $2",
                [String(limit), staff.userID], on: app.database)
            let stream = try await Self.storeStream(app, store: store, token: staff.token)
            try await stream.wait(seconds: 8) { $0.hasEnded }
            #expect(try await app.request(.get, "/v1/me", token: staff.token).errorCode == "session_expired")
        }
    }

    @Test("over the cap a session's next stream is 429 too_many_streams, on any instance; one closed frees its place")
    func capPerSession() async throws {
        try await withTestDatabase { database in
            // A client that went away is noticed at the next write: a heartbeat each second.
            let capped: @Sendable (inout AppConfiguration) -> Void = {
                $0.eventHeartbeat = .seconds(1)
                $0.eventStreamsPerSession = 2
            }
            try await withApp(database: database, configure: capped) { first in
                try await withApp(database: database, configure: capped) { second in
                    let store = try await first.createStore()
                    let staff = try await first.signIn(role: .staff, store: store)
                    let colleague = try await first.signIn(role: .staff, store: store)
                    let one = try await Self.storeStream(first, store: store, token: staff.token)
                    _ = try await Self.storeStream(second, store: store, token: staff.token)
                    for app in [first, second] {
                        let third = try await EventStreamTests.open(app, "/v1/stores/\(store)/events", token: staff.token)
                        #expect(third.status == 429)
                        third.close()
                    }
                    // Another session is not counted against this one.
                    #expect(try await Self.storeStream(first, store: store, token: colleague.token).status == 200)
                    // The client of one goes away: its place comes free.
                    one.close()
                    var reopened: SSEClient?
                    for _ in 0..<50 where reopened == nil {
                        let attempt = try await EventStreamTests.open(second, "/v1/stores/\(store)/events", token: staff.token)
                        if attempt.status == 200 { reopened = attempt } else { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(reopened != nil, "a closed stream's place is given back")
                }
            }
        }
    }

    @Test("a console page's stream takes the place of its session's stalest one (a reload), where the API's is 429; the one it replaced ends")
    func consoleReloadTakesOver() async throws {
        // A heartbeat slower than the reloads: a reloaded page's old stream is not noticed gone
        // before the next one opens, as in a browser reloaded seven times in six seconds.
        try await withApp(configure: {
            $0.eventHeartbeat = .seconds(2)
            $0.eventStreamsPerSession = 2
        }) { app in
            let store = try await app.createStore()
            let staff = try await app.storeAccount(.staff, store: store)
            let cookie = try await app.consoleCookie(staff)
            var pages: [SSEClient] = []
            for _ in 0..<7 {
                let page = try SSEClient(port: app.port!, path: "/console/events", token: nil, cookie: cookie)
                try await page.wait { $0.status != nil }
                #expect(page.status == 200, "every reload gets its live updates")
                pages.append(page)
            }
            #expect(try await sql("SELECT count(*) FROM event_streams", on: app.database) == [["2"]], "the cap still holds")
            // The replaced ones end (at their next heartbeat); the newest two stay.
            for page in pages.prefix(5) { try await page.wait(seconds: 8) { $0.hasEnded } }
            #expect(pages.suffix(2).allSatisfy { !$0.hasEnded })
            // The API's clients are told, as before.
            let session = try #require(cookie.split(separator: "=").last.map(String.init))
            let api = try await EventStreamTests.open(app, "/v1/stores/\(store)/events", token: session)
            #expect(api.status == 429)
            for page in pages { page.close() }
        }
    }
}
