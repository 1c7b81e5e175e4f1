import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Accounts, roles and sessions")
struct AccountTests {
    func registration(_ email: String, _ password: String = "long enough", confirmation: String? = nil, name: String = "Ann") -> JSONValue {
        [
            "email": .string(email), "name": .string(name), "password": .string(password),
            "passwordConfirmation": .string(confirmation ?? password),
        ]
    }

    @Test("a customer registers, is signed in, and /v1/me says who they are")
    func registerAndMe() async throws {
        try await withApp { app in
            let reply = try await app.request(.post, "/v1/auth/register", json: registration("  Ann@Example.com "))
            #expect(reply.status == .created)
            #expect(reply.json["user"]["email"].string == "Ann@Example.com")
            #expect(reply.json["user"]["role"].string == "customer")
            let token = try #require(reply.json["token"].string)
            #expect(token.count >= 43)
            let me = try await app.request(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            #expect(me.json["email"].string == "Ann@Example.com")
            #expect(me.json["storeId"] == .null)
            // The password is stored hashed, the token only as a hash.
            let stored = try await sql("SELECT password_hash FROM users", on: app.database)
            #expect(stored[0][0]?.hasPrefix("$2") == true)
            #expect(stored[0][0]?.contains("long enough") == false)
            let sessions = try await sql("SELECT encode(token_hash, 'hex') FROM sessions", on: app.database)
            #expect(sessions.count == 1)
            #expect(sessions[0][0]?.contains(token) == false)
        }
    }

    @Test("emails are unique regardless of case and surrounding spaces")
    func emailUniqueness() async throws {
        try await withApp { app in
            #expect(try await app.request(.post, "/v1/auth/register", json: registration("Foo@Example.com")).status == .created)
            let again = try await app.request(.post, "/v1/auth/register", json: registration("foo@example.com "))
            #expect(again.status == .conflict)
            #expect(again.errorCode == "email_taken")
            let users = try await sql("SELECT count(*) FROM users", on: app.database)
            #expect(users[0][0] == "1")
        }
    }

    @Test("four registrations of the same email at once, each on its own connection: one wins, three get 409")
    func concurrentRegistration() async throws {
        try await withApp { app in
            // Four sign-ups with one email, each on a connection of its own, at once.
            let statuses = try await app.race(4) { _, racer in
                try await racer.request(.post, "/v1/auth/register", json: registration("race@example.com")).status.code
            }
            #expect(statuses.sorted() == [201, 409, 409, 409])
            #expect(try await sql("SELECT count(*) FROM users", on: app.database)[0][0] == "1")
        }
    }

    static let badBodies: [(JSONValue, Int, String)] = [
        (["email": "not-an-email", "name": "A", "password": "long enough", "passwordConfirmation": "long enough"], 422, "invalid_email"),
        (["email": "a@example.com", "name": "A", "password": "short", "passwordConfirmation": "short"], 422, "password_too_short"),
        (["email": "a@example.com", "name": "A", "password": "long enough", "passwordConfirmation": "long enougH"], 422, "password_mismatch"),
        (["email": "a@example.com", "password": "long enough", "passwordConfirmation": "long enough"], 422, "missing_field"),
        (["email": "a@example.com", "name": "A", "password": 12_345_678, "passwordConfirmation": "12345678"], 422, "invalid_field"),
    ]

    @Test("bad registrations are refused with a clear code and write nothing", arguments: badBodies)
    func badRegistrations(body: JSONValue, status: Int, code: String) async throws {
        try await withApp { app in
            let reply = try await app.request(.post, "/v1/auth/register", json: body)
            #expect(reply.status.code == status)
            #expect(reply.errorCode == code)
            #expect(try await sql("SELECT count(*) FROM users", on: app.database)[0][0] == "0")
        }
    }

    @Test("a missing field is named in the error")
    func missingFieldNamed() async throws {
        try await withApp { app in
            let reply = try await app.request(
                .post, "/v1/auth/register", json: ["email": "a@example.com", "password": "long enough", "passwordConfirmation": "long enough"])
            #expect(reply.json["error"]["details"]["field"].string == "name")
        }
    }

    @Test("malformed JSON gets 400 in the error envelope, never a 500")
    func malformedJSON() async throws {
        try await withApp { app in
            let reply = try await app.request(.post, "/v1/auth/register", rawBody: "{\"email\": ")
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "malformed_json")
            let empty = try await app.request(.post, "/v1/auth/login")
            #expect(empty.status == .badRequest)
            #expect(empty.errorCode != nil)
        }
    }

    @Test("a wrong email and a wrong password get the same 401")
    func noEnumeration() async throws {
        try await withApp { app in
            _ = try await app.registerCustomer(email: "known@example.com", password: "right password")
            let wrongPassword = try await app.request(.post, "/v1/auth/login", json: ["email": "known@example.com", "password": "wrong password"])
            let wrongEmail = try await app.request(.post, "/v1/auth/login", json: ["email": "nobody@example.com", "password": "wrong password"])
            #expect(wrongPassword.status == .unauthorized)
            #expect(wrongPassword.body == wrongEmail.body)
            #expect(wrongEmail.errorCode == "invalid_credentials")
            let right = try await app.request(.post, "/v1/auth/login", json: ["email": " KNOWN@example.com", "password": "right password"])
            #expect(right.status == .ok)
        }
    }

    @Test("repeated failures for one email are throttled with Retry-After")
    func throttling() async throws {
        try await withApp { app in
            _ = try await app.registerCustomer(email: "target@example.com", password: "right password")
            for _ in 0..<5 {
                let reply = try await app.request(.post, "/v1/auth/login", json: ["email": "target@example.com", "password": "guess guess"])
                #expect(reply.status == .unauthorized)
            }
            let locked = try await app.request(.post, "/v1/auth/login", json: ["email": "Target@example.com", "password": "right password"])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.errorCode == "too_many_attempts")
            let retryAfter = try #require(locked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter > 0 && retryAfter <= 15 * 60)
            // Another email is not affected.
            _ = try await app.registerCustomer(email: "other@example.com", password: "right password")
            #expect(try await app.request(.post, "/v1/auth/login", json: ["email": "other@example.com", "password": "right password"]).status == .ok)
        }
    }

    @Test("after logout the token never works again; other sessions still do")
    func logout() async throws {
        try await withApp { app in
            let first = try await app.registerCustomer(email: "two@example.com", password: "right password")
            let second = try await app.request(.post, "/v1/auth/login", json: ["email": "two@example.com", "password": "right password"])
            let secondToken = try #require(second.json["token"].string)
            #expect(try await app.request(.post, "/v1/auth/logout", token: first.token).status == .noContent)
            let reuse = try await app.request(.get, "/v1/me", token: first.token)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "unauthorized")
            #expect(try await app.request(.post, "/v1/auth/logout", token: first.token).status == .unauthorized)
            #expect(try await app.request(.get, "/v1/me", token: secondToken).status == .ok)
        }
    }

    @Test("no token, or a made-up one, is 401")
    func unauthenticated() async throws {
        try await withApp { app in
            let none = try await app.request(.get, "/v1/me")
            let madeUp = try await app.request(.get, "/v1/me", token: "made-up")
            let basic = try await app.request(.get, "/v1/me", headers: [.authorization: "Basic Zm9vOmJhcg=="])
            #expect(none.status == .unauthorized)
            #expect(madeUp.status == .unauthorized)
            #expect(basic.status == .unauthorized)
        }
    }

    @Test("a manager creates staff for their store; staff see their store in /v1/me")
    func managerCreatesStaff() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let created = try await app.request(
                .post, "/v1/stores/\(store)/staff",
                json: ["email": "picker@example.com", "name": "Pat Picker", "password": "picker pass", "role": "staff"],
                token: manager.token)
            #expect(created.status == .created)
            #expect(created.json["role"].string == "staff")
            #expect(created.json["storeId"].string == store)
            let login = try await app.request(.post, "/v1/auth/login", json: ["email": "picker@example.com", "password": "picker pass"])
            let me = try await app.request(.get, "/v1/me", token: login.json["token"].string)
            #expect(me.json["storeId"].string == store)
            #expect(me.json["role"].string == "staff")
        }
    }

    @Test("a customer calling a staff route gets 403; staff calling a manager route gets 403")
    func roleChecks() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let customer = try await app.registerCustomer()
            let staff = try await app.signIn(role: .staff, store: store)
            let body: JSONValue = ["email": "x@example.com", "name": "X", "password": "password1", "role": "staff"]
            #expect(try await app.request(.post, "/v1/stores/\(store)/staff", json: body, token: customer.token).status == .forbidden)
            let byStaff = try await app.request(.post, "/v1/stores/\(store)/staff", json: body, token: staff.token)
            #expect(byStaff.status == .forbidden)
            #expect(byStaff.errorCode == "forbidden")
            #expect(try await sql("SELECT count(*) FROM users WHERE email = 'x@example.com'", on: app.database)[0][0] == "0")
        }
    }

    @Test("a manager of store A cannot act on store B")
    func otherStore() async throws {
        try await withApp { app in
            let storeA = try await app.createStore(code: "STORE-A")
            let storeB = try await app.createStore(code: "STORE-B")
            let managerA = try await app.signIn(role: .manager, store: storeA)
            let reply = try await app.request(
                .post, "/v1/stores/\(storeB)/staff", json: ["email": "y@example.com", "name": "Y", "password": "password1", "role": "manager"],
                token: managerA.token)
            #expect(reply.status == .forbidden)
        }
    }

    @Test("a staff member of store A cannot act on store B's data")
    func staffOtherStore() async throws {
        try await withApp { app in
            let storeA = try await app.createStore(code: "STAFF-A")
            let storeB = try await app.createStore(code: "STAFF-B")
            let staffA = try await app.signIn(role: .staff, store: storeA)
            let ownBoard = try await app.request(.get, "/v1/stores/\(storeA)/orders", token: staffA.token)
            let otherBoard = try await app.request(.get, "/v1/stores/\(storeB)/orders", token: staffA.token)
            let otherPickList = try await app.request(.post, "/v1/stores/\(storeB)/pick-lists", json: [:], token: staffA.token)
            #expect(ownBoard.status == .ok)
            #expect(otherBoard.status == .forbidden)
            #expect(otherBoard.errorCode == "forbidden")
            #expect(otherPickList.status == .forbidden)
        }
    }

    @Test("the access table and the contract name exactly the same operations, each once")
    func policyCoversContract() throws {
        let spec = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        // An operation's own id sits at six spaces (path, method, field); deeper ones are links to it.
        let operations = spec.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("      operationId:") else { return nil }
            return line.dropFirst("      operationId:".count).trimmingCharacters(in: .whitespaces)
        }
        #expect(Set(operations).count == operations.count, "an operationId appears twice in the contract")
        let inContract = Set(operations)
        let inTable = Set(AccessPolicy.operations.keys)
        #expect(inContract.subtracting(inTable).sorted() == [], "operations with no access policy (refused by the middleware)")
        #expect(inTable.subtracting(inContract).sorted() == [], "access policies for operations the contract does not have")
        #expect(AccessPolicy.resolvedInStatement.isSubset(of: inContract))
    }

    @Test("no password or token appears in the logs")
    func nothingSecretLogged() async throws {
        let logs = LogCapture()
        try await withApp(logHandler: logs) { app in
            let session = try await app.registerCustomer(email: "logs@example.com", password: "SuperSecret-Pass-42")
            _ = try await app.request(.post, "/v1/auth/login", json: ["email": "logs@example.com", "password": "SuperSecret-Pass-42"])
            _ = try await app.request(.post, "/v1/auth/login", json: ["email": "logs@example.com", "password": "Wrong-Secret-99"])
            _ = try await app.request(.get, "/v1/me", token: session.token)
            _ = try await app.request(.post, "/v1/auth/logout", token: session.token)
            let text = logs.text
            #expect(text.contains("/v1/auth/login"), "the capture saw the requests")
            #expect(!text.contains("SuperSecret-Pass-42"))
            #expect(!text.contains("Wrong-Secret-99"))
            #expect(!text.contains(session.token))
        }
    }
}
