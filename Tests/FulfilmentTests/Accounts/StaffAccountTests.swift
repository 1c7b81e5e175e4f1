import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A manager disables and enables staff accounts")
struct StaffAccountTests {
    @Test("a manager disables a staff member: every session of theirs ends at once and they cannot sign in")
    func disableEndsSessions() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store, password: "staff password")
            let email = try await app.email(of: staff)
            let tillToken = try await app.token(email, "staff password")

            let disabled = try await app.request(.post, "/v1/stores/\(store)/staff/\(staff.userID)/disable", token: manager.token)
            #expect(disabled.status == .ok)
            #expect(disabled.json["disabledAt"].string != nil)

            #expect(try await app.works(staff.token) == false)
            #expect(try await app.works(tillToken) == false)
            let ended = try await sql(
                "SELECT count(*) FROM sessions WHERE user_id = $1 AND ended_reason = 'disabled'", [staff.userID], on: app.database)
            #expect(ended[0][0] == "2")

            // The right password says the account is disabled; a wrong one says no more than ever.
            let right = try await app.login(email, "staff password")
            #expect(right.status == .forbidden)
            #expect(right.errorCode == "account_disabled")
            #expect(try await app.login(email, "wrong password").errorCode == "invalid_credentials")
            #expect(try await app.works(manager.token), "the manager is still signed in")
        }
    }

    @Test("enabling lets them sign in again; the sessions disabling ended stay ended")
    func enable() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store, password: "staff password")
            let email = try await app.email(of: staff)
            #expect(try await app.request(.post, "/v1/stores/\(store)/staff/\(staff.userID)/disable", token: manager.token).status == .ok)

            let enabled = try await app.request(.post, "/v1/stores/\(store)/staff/\(staff.userID)/enable", token: manager.token)
            #expect(enabled.status == .ok)
            #expect(enabled.json.has("disabledAt") == false)
            #expect(try await app.works(try await app.token(email, "staff password")))
            #expect(try await app.works(staff.token) == false)
        }
    }

    @Test("only a manager of that store disables its staff; customers, strangers and oneself are refused")
    func whoMayDisable() async throws {
        try await withApp { app in
            let storeA = try await app.createStore(code: "DIS-A")
            let storeB = try await app.createStore(code: "DIS-B")
            let managerA = try await app.signIn(role: .manager, store: storeA)
            let staffA = try await app.signIn(role: .staff, store: storeA)
            let otherStaffA = try await app.signIn(role: .staff, store: storeA)
            let staffB = try await app.signIn(role: .staff, store: storeB)
            let customer = try await app.registerCustomer()

            let byStaff = try await app.request(.post, "/v1/stores/\(storeA)/staff/\(otherStaffA.userID)/disable", token: staffA.token)
            #expect(byStaff.status == .forbidden)
            let otherStore = try await app.request(.post, "/v1/stores/\(storeB)/staff/\(staffB.userID)/disable", token: managerA.token)
            #expect(otherStore.status == .forbidden)
            let throughOwnStore = try await app.request(.post, "/v1/stores/\(storeA)/staff/\(staffB.userID)/disable", token: managerA.token)
            #expect(throughOwnStore.status == .notFound)
            let aCustomer = try await app.request(.post, "/v1/stores/\(storeA)/staff/\(customer.userID)/disable", token: managerA.token)
            #expect(aCustomer.status == .notFound)
            let notAnID = try await app.request(.post, "/v1/stores/\(storeA)/staff/nobody/disable", token: managerA.token)
            #expect(notAnID.status.code < 500)
            let oneself = try await app.request(.post, "/v1/stores/\(storeA)/staff/\(managerA.userID)/disable", token: managerA.token)
            #expect(oneself.status == .conflict)
            #expect(oneself.errorCode == "cannot_disable_self")

            for session in [staffA, otherStaffA, staffB, customer, managerA] {
                #expect(try await app.works(session.token), "nobody was disabled")
            }
            #expect(try await sql("SELECT count(*) FROM users WHERE disabled_at IS NOT NULL", on: app.database)[0][0] == "0")
        }
    }

    @Test("a sign-in racing a manager's disable never leaves a live session behind")
    func signInRacingDisable() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store, password: "staff password")
            let email = try await app.email(of: staff)

            // The manager's disable, held open after ending the sessions it can see.
            let manager = try HeldConnection(app.database)
            try await manager.run("BEGIN")
            try await manager.run("UPDATE users SET disabled_at = now() WHERE id = $1", [staff.userID])
            try await manager.run(
                "UPDATE sessions SET ended_at = now(), ended_reason = 'disabled' WHERE user_id = $1 AND ended_at IS NULL", [staff.userID])

            let port = try app.livePort
            let signingIn = Task { try await SeparateConnections.send(.login(email, "staff password"), port: port) }
            // The sign-in must wait for the disable's lock before it starts a session.
            for _ in 0..<250 {
                let waiting = try await sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", on: app.database)
                if waiting == [["1"]] { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await manager.run("COMMIT")

            let reply = try await signingIn.value
            #expect(reply.status == .forbidden)
            #expect(reply.errorCode == "account_disabled")
            let live = try await sql("SELECT count(*) FROM sessions WHERE user_id = $1 AND ended_at IS NULL", [staff.userID], on: app.database)
            #expect(live == [["0"]])
        }
    }
}
