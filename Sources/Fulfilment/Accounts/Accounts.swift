import Foundation
import HummingbirdBcrypt
import Logging
import PostgresNIO

/// Registration, sign-in and sign-out: the rules of issue 4 in one place, with the SQL in
/// `UserQueries` and the HTTP in `API+Accounts`.
public struct Accounts: Sendable {
    let database: Database
    let hasher: PasswordHasher
    /// Failures allowed per email within `throttleWindow` before sign-in is refused for `lockout`.
    var throttleLimit = 5
    var throttleWindowSeconds = 15 * 60
    var lockoutSeconds = 15 * 60

    /// A real hash at the configured cost, verified against when the email is unknown, so a
    /// wrong email costs the same time as a wrong password (no account enumeration by timing).
    let dummyHash: String

    /// Hashes once at the configured cost (blocking, at start-up).
    public init(database: Database, hasher: PasswordHasher) {
        self.database = database
        self.hasher = hasher
        self.dummyHash = Bcrypt.hash(UUID().uuidString, cost: hasher.cost)
    }

    struct SignedIn: Sendable {
        var user: User
        var token: SessionToken
    }

    /// Creates a customer and signs them in, in one transaction: any failed check writes nothing.
    func register(email: String, name: String, password: String, confirmation: String, logger: Logger) async throws -> SignedIn {
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        try AccountRules.password(password, confirmation: confirmation)
        let hash = try await hasher.hash(password)
        let token = SessionToken.generate()
        let user = try await database.transaction(logger: logger) { connection in
            let user = try await UserQueries.insert(
                email: email, name: name, passwordHash: hash, role: .customer, storeID: nil, on: connection, logger: logger)
            try await UserQueries.createSession(userID: user.id, tokenHash: token.hash, on: connection, logger: logger)
            return user
        }
        return SignedIn(user: user, token: token)
    }

    /// Wrong email and wrong password are the same failure, in the same time.
    func login(email rawEmail: String, password: String, logger: Logger) async throws -> SignedIn {
        let emailKey = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let client = database.client
        if let seconds = try await UserQueries.lockedFor(emailKey: emailKey, on: client, logger: logger) {
            throw AccountError.throttled(retryAfterSeconds: seconds)
        }
        let found = try await UserQueries.credentials(email: emailKey, on: client, logger: logger)
        let matches = try await hasher.verify(password, against: found?.1 ?? dummyHash)
        guard let (user, _) = found, matches else {
            try await UserQueries.recordFailure(
                emailKey: emailKey, limit: throttleLimit, window: throttleWindowSeconds, lockout: lockoutSeconds,
                on: client, logger: logger)
            throw AccountError.invalidCredentials
        }
        try await UserQueries.clearFailures(emailKey: emailKey, on: client, logger: logger)
        let token = SessionToken.generate()
        try await UserQueries.createSession(userID: user.id, tokenHash: token.hash, on: client, logger: logger)
        return SignedIn(user: user, token: token)
    }

    func logout(_ identity: Identity, logger: Logger) async throws {
        try await UserQueries.endSession(identity.sessionID, on: database.client, logger: logger)
    }

    /// Creates a staff member or manager of `store` (by a manager of it, or the CLI).
    public func createStoreAccount(
        email: String, name: String, password: String, role: Role, store: StoreID, logger: Logger
    ) async throws -> User {
        guard role.worksInStore else { throw AccountError.invalidRole }
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        try AccountRules.password(password)
        guard try await UserQueries.storeExists(store, on: database.client, logger: logger) else {
            throw AccountError.storeNotFound
        }
        let hash = try await hasher.hash(password)
        return try await database.transaction(logger: logger) { connection in
            try await UserQueries.insert(email: email, name: name, passwordHash: hash, role: role, storeID: store, on: connection, logger: logger)
        }
    }

    /// Creates a customer without signing in (the demo seed).
    public func createCustomer(email: String, name: String, password: String, logger: Logger) async throws -> User {
        let email = try AccountRules.email(email)
        try AccountRules.password(password)
        let hash = try await hasher.hash(password)
        return try await database.transaction(logger: logger) { connection in
            try await UserQueries.insert(
                email: email, name: try AccountRules.name(name), passwordHash: hash, role: .customer, storeID: nil,
                on: connection, logger: logger)
        }
    }

    /// The store with this id or code, or nil.
    public func store(codeOrID: String, logger: Logger) async throws -> StoreID? {
        try await UserQueries.store(codeOrID: codeOrID, on: database.client, logger: logger)
    }
}
