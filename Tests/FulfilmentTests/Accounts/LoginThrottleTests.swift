import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Failed sign-ins are counted atomically, per account and per client address")
struct LoginThrottleTests {
    @Test("twelve wrong guesses at once get exactly five tries; the rest are throttled")
    func parallelGuessesCannotExceedTheLimit() async throws {
        // A slower hash widens the gap between a guess's check and its count, as in production.
        try await withApp(configure: {
            $0.bcryptCost = 8
            $0.bcryptQueue = .init(slots: 4, waiting: 64)
        }) { app in
            _ = try await app.registerCustomer(email: "target@example.com", password: "right password")
            let guesses = (0..<12).map { SeparateConnections.Request.login("target@example.com", "guess \($0)") }
            let replies = try await SeparateConnections.race(guesses, port: try app.livePort)
            // Closures are kept out of #expect: evaluated inside it they were not always right.
            let tried = replies.filter { $0.status == .unauthorized }.count
            let throttled = replies.filter { $0.errorCode == "too_many_attempts" }.count
            #expect(tried == 5)
            #expect(throttled == 7)
            let counted = try await sql(
                "SELECT failures FROM login_throttle WHERE email_key = 'target@example.com' AND address = '127.0.0.1'", on: app.database)
            #expect(counted == [["5"]])
        }
    }

    @Test("someone guessing a staff member's password locks out their own address, not the staff member's till")
    func attackerCannotLockStaffOut() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store, password: "till password")
            let email = try await app.email(of: staff)
            let port = try app.livePort
            for guess in 0..<5 {
                let reply = try await SeparateConnections.send(.login(email, "guess \(guess)", from: "127.0.0.2"), port: port)
                #expect(reply.status == .unauthorized)
            }
            let attacker = try await SeparateConnections.send(.login(email, "till password", from: "127.0.0.2"), port: port)
            #expect(attacker.status == .tooManyRequests)
            #expect(attacker.errorCode == "too_many_attempts")
            #expect(Int(attacker.headers[.retryAfter] ?? "") ?? 0 > 0)

            let till = try await SeparateConnections.send(.login(email, "till password", from: "127.0.0.1"), port: port)
            #expect(till.status == .ok)
        }
    }

    @Test(
        "the address is the connection's, so a made-up X-Forwarded-For does not dodge the limit, with trusted proxies or none",
        arguments: ["", "127.0.0.1/32"])
    func forwardedForIgnored(trustedProxies: String) async throws {
        // 127.0.0.8 is never a trusted proxy here: its header is whatever it likes.
        try await withApp(configure: { $0.trustedProxies = TrustedProxies(parsing: trustedProxies) }) { app in
            let port = try app.livePort
            for guess in 0..<5 {
                var request = SeparateConnections.Request.login("mark@example.com", "guess", from: "127.0.0.8")
                request.headers = ["X-Forwarded-For": "198.51.100.\(guess)"]
                #expect(try await SeparateConnections.send(request, port: port).status == .unauthorized)
            }
            var sixth = SeparateConnections.Request.login("mark@example.com", "guess", from: "127.0.0.8")
            sixth.headers = ["X-Forwarded-For": "198.51.100.99"]
            #expect(try await SeparateConnections.send(sixth, port: port).errorCode == "too_many_attempts")
            let counted = try await sql("SELECT DISTINCT address FROM login_throttle WHERE failures > 0 AND address <> ''", on: app.database)
            #expect(counted.map { $0[0] } == ["127.0.0.8"])
        }
    }

    @Test("one address spraying guesses over many accounts stops at the per-address limit (20)")
    func perAddressLimit() async throws {
        try await withApp { app in
            let port = try app.livePort
            for attempt in 0..<20 {
                let reply = try await SeparateConnections.send(.login("victim\(attempt % 5)@example.com", "guess", from: "127.0.0.3"), port: port)
                #expect(reply.status == .unauthorized)
            }
            let next = try await SeparateConnections.send(.login("fresh@example.com", "guess", from: "127.0.0.3"), port: port)
            #expect(next.errorCode == "too_many_attempts")
            let elsewhere = try await SeparateConnections.send(.login("fresh@example.com", "guess", from: "127.0.0.4"), port: port)
            #expect(elsewhere.errorCode == "invalid_credentials")
        }
    }

    @Test("guesses spread over many addresses stop at the account's ceiling")
    func perAccountCeiling() async throws {
        let throttle = LoginThrottle(perAccountAndAddress: 2, perAddress: 10, perAccount: 4)
        try await withApp(configure: { $0.loginThrottle = throttle }) { app in
            _ = try await app.registerCustomer(email: "popular@example.com", password: "right password")
            let port = try app.livePort
            for address in ["127.0.0.5", "127.0.0.6"] {
                for _ in 0..<2 {
                    let reply = try await SeparateConnections.send(.login("popular@example.com", "guess", from: address), port: port)
                    #expect(reply.status == .unauthorized)
                }
            }
            let third = try await SeparateConnections.send(.login("popular@example.com", "guess", from: "127.0.0.7"), port: port)
            #expect(third.errorCode == "too_many_attempts")
        }
    }

    @Test("a right password gives its attempt back: typos between successes never lock a user out")
    func successGivesBack() async throws {
        try await withApp { app in
            _ = try await app.registerCustomer(email: "typo@example.com", password: "right password")
            for _ in 0..<3 {
                for _ in 0..<4 { #expect(try await app.login("typo@example.com", "wrong password").status == .unauthorized) }
                #expect(try await app.login("typo@example.com", "right password").status == .ok)
            }
            let rows = try await sql("SELECT email_key, address, failures, pending FROM login_throttle ORDER BY 1, 2", on: app.database)
            // The account-from-this-address count started again, and an empty key is not kept.
            #expect(rows == [["", "127.0.0.1", "12", "0"], ["typo@example.com", "", "12", "0"]])
        }
    }

    @Test("a burst of sign-ins of one account: those past the limit in flight wait a second, none is locked out or fails")
    func parallelSuccesses() async throws {
        try await withApp(configure: { $0.bcryptQueue = .init(slots: 4, waiting: 64) }) { app in
            _ = try await app.registerCustomer(email: "busy-till@example.com", password: "right password")
            for _ in 0..<3 {
                let logins = (0..<16).map { _ in SeparateConnections.Request.login("busy-till@example.com", "right password") }
                let replies = try await SeparateConnections.race(logins, port: try app.livePort)
                let signedIn = replies.filter { $0.status == .ok }
                let refused = replies.filter { $0.status == .tooManyRequests }
                let codes = replies.map { "\($0.status.code) \($0.errorCode ?? "")" }
                let waitASecond = refused.allSatisfy { $0.headers[.retryAfter] == "1" }
                #expect(signedIn.count + refused.count == 16, "no 500, no 401: \(codes)")
                #expect(signedIn.count >= 5)
                #expect(waitASecond, "in flight, not failed: try again in a second")
            }
            #expect(try await app.login("busy-till@example.com", "right password").status == .ok)
            let rows = try await sql("SELECT failures, pending FROM login_throttle", on: app.database)
            #expect(rows.isEmpty, "every reservation was given back, and empty keys are not kept")
        }
    }
}
