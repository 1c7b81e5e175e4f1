import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Sessions end when idle too long or too old")
struct SessionLifetimeTests {
    @Test("a session unused for longer than the idle limit (12 hours) is refused as session_expired")
    func idleSessionExpires() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer()
            #expect(try await app.works(customer.token))
            _ = try await sql("UPDATE sessions SET last_used_at = now() - interval '12 hours 1 minute'", on: app.database)
            let reply = try await app.request(.get, "/v1/me", token: customer.token)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorCode == "session_expired")
            // Being refused does not bring it back to life.
            #expect(try await app.request(.get, "/v1/me", token: customer.token).errorCode == "session_expired")
        }
    }

    @Test("a session in use keeps going, and each use is recorded with the database's clock")
    func sessionInUseLives() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer()
            _ = try await sql("UPDATE sessions SET last_used_at = now() - interval '11 hours'", on: app.database)
            #expect(try await app.works(customer.token))
            let idle = try await sql("SELECT now() - last_used_at < interval '1 minute' FROM sessions", on: app.database)
            #expect(idle[0][0] == "t")
        }
    }

    @Test("a session older than the absolute limit (30 days) expires however often it is used")
    func oldSessionExpires() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer(email: "month@example.com", password: "right password")
            _ = try await sql("UPDATE sessions SET created_at = now() - interval '30 days 1 minute', last_used_at = now()", on: app.database)
            let reply = try await app.request(.get, "/v1/me", token: customer.token)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorCode == "session_expired")
            // Signing in again starts a fresh session.
            #expect(try await app.works(try await app.token("month@example.com", "right password")))
        }
    }

    @Test("the lifetimes are the configured ones")
    func configuredLifetimes() async throws {
        try await withApp(configure: { $0.sessionLifetime = SessionLifetime(idleSeconds: 120, maximumSeconds: 3600) }) { app in
            let first = try await app.registerCustomer(email: "short@example.com", password: "right password")
            _ = try await sql("UPDATE sessions SET last_used_at = now() - interval '3 minutes'", on: app.database)
            #expect(try await app.request(.get, "/v1/me", token: first.token).errorCode == "session_expired")

            let second = try await app.token("short@example.com", "right password")
            _ = try await sql("UPDATE sessions SET created_at = now() - interval '61 minutes' WHERE ended_at IS NULL", on: app.database)
            #expect(try await app.request(.get, "/v1/me", token: second).errorCode == "session_expired")
        }
    }

    @Test("the environment sets the lifetimes; nonsense keeps the defaults")
    func lifetimesFromEnvironment() {
        let set = SessionLifetime.from(environment: ["FULFILMENT_SESSION_IDLE_MINUTES": "30", "FULFILMENT_SESSION_MAX_HOURS": "48"])
        #expect(set == SessionLifetime(idleSeconds: 30 * 60, maximumSeconds: 48 * 3600))
        let nonsense = SessionLifetime.from(environment: ["FULFILMENT_SESSION_IDLE_MINUTES": "-5", "FULFILMENT_SESSION_MAX_HOURS": "soon"])
        #expect(nonsense == SessionLifetime())
        #expect(SessionLifetime() == SessionLifetime(idleSeconds: 12 * 3600, maximumSeconds: 30 * 24 * 3600))
    }
}
