import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A signed-in test user.
struct Session: Sendable {
    var token: String
    var userID: String
    var storeID: String?
}

extension TestApp {
    /// Registers a customer through the API and returns their session.
    func registerCustomer(email: String = "cust-\(UUID().uuidString.prefix(8))@example.com", password: String = "correct horse") async throws
        -> Session
    {
        let reply = try await request(
            .post, "/v1/auth/register",
            json: ["email": .string(email), "name": "Test Customer", "password": .string(password), "passwordConfirmation": .string(password)])
        guard reply.status == .created, let token = reply.json["token"].string, let id = reply.json["user"]["id"].string else {
            throw TestSetupError("registration failed: \(reply.status) \(reply.text)")
        }
        return Session(token: token, userID: id)
    }

    /// Creates a store straight in the database (stores have no API to create them).
    func createStore(code: String = "S-\(UInt16.random(in: 1000...9999))", name: String = "Test Store") async throws -> String {
        let rows = try await sql(
            "INSERT INTO stores (code, name, currency) VALUES ($1, $2, 'JMD') RETURNING id", [code, name], on: database)
        return rows[0][0]!
    }

    /// Creates a staff member or manager of `store` and signs them in through the API.
    func signIn(role: Role, store: String, password: String = "staff password") async throws -> Session {
        let email = "\(role.rawValue)-\(UUID().uuidString.prefix(8))@example.com"
        let database = try FulfilmentDomain.Database(connection: self.database, logger: Logger(label: "test"))
        let accounts = Accounts(database: database, hasher: PasswordHasher(cost: 4))
        try await withRunning(database) {
            _ = try await accounts.createStoreAccount(
                email: email, name: "Test \(role.rawValue)", password: password, role: role, store: StoreID(store)!,
                logger: Logger(label: "test"))
        }
        let reply = try await request(.post, "/v1/auth/login", json: ["email": .string(email), "password": .string(password)])
        guard reply.status == .ok, let token = reply.json["token"].string else {
            throw TestSetupError("sign-in failed: \(reply.status) \(reply.text)")
        }
        return Session(token: token, userID: reply.json["user"]["id"].string ?? "", storeID: store)
    }
}

extension TestApp {
    /// Creates one of the chain's admins (as `fulfilment user create --role admin` does) and
    /// signs them in through the API.
    func signInAdmin(password: String = "admin password") async throws -> Session {
        let email = "admin-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try await withDatabase { database in
            _ = try await Accounts(database: database, hasher: PasswordHasher(cost: 4)).createAdmin(
                email: email, name: "Chain Admin", password: password, logger: Logger(label: "test"))
        }
        let reply = try await request(.post, "/v1/auth/login", json: ["email": .string(email), "password": .string(password)])
        guard reply.status == .ok, let token = reply.json["token"].string else {
            throw TestSetupError("admin sign-in failed: \(reply.status) \(reply.text)")
        }
        return Session(token: token, userID: reply.json["user"]["id"].string ?? "")
    }

    /// Runs `body` with a running client of this app's database of its own: another instance,
    /// as far as PostgreSQL can tell.
    func withDatabase<T: Sendable>(_ body: @Sendable (FulfilmentDomain.Database) async throws -> T) async throws -> T {
        let database = try FulfilmentDomain.Database(connection: self.database, logger: Logger(label: "test"))
        return try await withRunning(database) { try await body(database) }
    }
}

/// Runs `body` while `database`'s client runs. The client is cancelled afterwards but not
/// waited for: a `PostgresClient.run()` cancelled this way was seen never to return, and a
/// test that waited for it (in a task group) hung the whole run.
func withRunning<T: Sendable>(_ database: FulfilmentDomain.Database, _ body: () async throws -> T) async throws -> T {
    let running = Task { try? await database.run() }
    defer { running.cancel() }
    return try await body()
}
