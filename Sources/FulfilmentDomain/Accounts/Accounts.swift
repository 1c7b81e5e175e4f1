import Foundation
import HummingbirdBcrypt
import Logging
import PostgresNIO

/// Registration, sign-in and sign-out: the rules of issue 4 in one place, with the SQL in
/// `UserQueries` and the HTTP in `API+Accounts`.
public struct Accounts: Sendable {
    package let database: Database
    package let hasher: PasswordHasher
    /// Failed sign-ins allowed per account, per client address and per both.
    package let throttle: LoginThrottle
    /// How long a session lasts idle and in all.
    package let sessionLifetime: SessionLifetime

    /// A real hash at the configured cost, verified against when the email is unknown, so a
    /// wrong email costs the same time as a wrong password (no account enumeration by timing).
    package let dummyHash: String

    /// The chain's workforce provider (issue 33, `ProviderSignInSettings.workforceIssuer`): when
    /// set, staff and managers do not sign in with a password.
    package var workforceIssuer: String? = nil

    /// Hashes once at the configured cost (blocking, at start-up).
    public init(
        database: Database, hasher: PasswordHasher, throttle: LoginThrottle = LoginThrottle(),
        sessionLifetime: SessionLifetime = SessionLifetime()
    ) {
        self.database = database
        self.hasher = hasher
        self.throttle = throttle
        self.sessionLifetime = sessionLifetime
        self.dummyHash = Bcrypt.hash(UUID().uuidString, cost: hasher.cost)
        self.sessions = Sessions(database: database, lifetime: sessionLifetime)
    }

    /// Resolves presented tokens with this service's lifetimes (built once, with the service).
    package let sessions: Sessions

    package struct SignedIn: Sendable {
        package var user: User
        package var token: SessionToken
    }

    /// Creates a customer and signs them in, in one transaction: any failed check writes nothing.
    package func register(email: String, name: String, password: String, confirmation: String, logger: Logger) async throws -> SignedIn {
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        try AccountRules.password(password, confirmation: confirmation)
        let hash = try await hasher.hash(password)
        let token = SessionToken.generate()
        let user = try await database.transaction(logger: logger) { connection in
            let user = try await UserQueries.insert(
                email: email, name: name, passwordHash: hash, role: .customer, storeID: nil, on: connection, logger: logger)
            guard try await SessionQueries.start(userID: user.id, tokenHash: token.hash, on: connection, logger: logger) else {
                throw AccountError.notRecorded
            }
            return user
        }
        return SignedIn(user: user, token: token)
    }

    /// Wrong email and wrong password are the same failure, in the same time.
    ///
    /// The attempt is counted against the throttle before bcrypt runs (so parallel guesses
    /// cannot exceed a limit) and given back when the password was right or never checked.
    package func login(email rawEmail: String, password: String, logger: Logger) async throws -> SignedIn {
        let emailKey = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // No account has an empty or longer email; refusing it here keeps throttle keys distinct and bounded.
        guard (1...254).contains(emailKey.count) else { throw AccountError.invalidCredentials }
        let address = ClientAddress.current
        let (user, matches) = try await checkPassword(password, emailKey: emailKey, address: address, lane: .signIn, logger: logger) {
            try await UserQueries.credentials(email: emailKey, on: database.client, logger: logger)
        }
        guard let user, matches else { throw AccountError.invalidCredentials }
        guard user.disabledAt == nil else { throw AccountError.accountDisabled }
        // Told only to someone who knew the password, like `accountDisabled`.
        if user.role.worksInStore, workforceIssuer != nil { throw ProviderSignInError.workforceSignInRequired }
        let token = SessionToken.generate()
        let started = try await database.transaction(logger: logger) { connection in
            try await SessionQueries.start(userID: user.id, tokenHash: token.hash, on: connection, logger: logger)
        }
        guard started else { throw AccountError.accountDisabled }
        return SignedIn(user: user, token: token)
    }

    /// The hash a password is checked against: the account's own, or the dummy when there is no
    /// account or it has no bcrypt hash. An account made through an identity provider holds no
    /// hash, and refusing it at once answered in 3 ms against 190 (issue 41), telling anyone which
    /// accounts have no password; now every refusal costs one bcrypt check at the same cost.
    package func hashToCheck(stored: String?) -> String {
        stored.flatMap { PasswordHasher.isHash($0) ? $0 : nil } ?? dummyHash
    }

    /// Reserves a throttled attempt for `emailKey` from `address`, checks `password` against
    /// the hash `find` returns (or the dummy hash, in the same time, when there is none), and
    /// settles the reservation: a failure for a wrong password, given back otherwise.
    package func checkPassword(
        _ password: String, emailKey: String, address: String, lane: BcryptQueue.Lane, logger: Logger,
        find: () async throws -> (User, String)?
    ) async throws -> (User?, Bool) {
        try await LoginThrottleQueries.reserve(emailKey: emailKey, address: address, rules: throttle, database: database, logger: logger)
        let found: (User, String)?
        let matches: Bool
        do {
            found = try await find()
            let against = hashToCheck(stored: found?.1)
            matches = try await hasher.verify(password, against: against, lane: lane) && against != dummyHash
        } catch {
            try? await LoginThrottleQueries.settle(
                .abandoned, emailKey: emailKey, address: address, rules: throttle, database: database, logger: logger)
            throw error
        }
        let outcome: LoginThrottleQueries.Outcome = found != nil && matches ? .succeeded : .failed
        try await LoginThrottleQueries.settle(outcome, emailKey: emailKey, address: address, rules: throttle, database: database, logger: logger)
        guard let (user, _) = found, matches else { return (found?.0, false) }
        return (user, true)
    }

    /// The signed-in caller's own account; 401 when it is gone.
    package func me(_ identity: Identity, logger: Logger) async throws -> User {
        guard let user = try await UserQueries.user(id: identity.userID, on: database.client, logger: logger) else {
            throw AccessError.unauthenticated
        }
        return user
    }

    package func logout(_ identity: Identity, logger: Logger) async throws {
        try await SessionQueries.end(identity.sessionID, reason: .logout, on: database.client, logger: logger)
    }

    /// Creates a staff member or manager of `store` (the command line, which acts for no caller).
    public func createStoreAccount(
        email: String, name: String, password: String, role: Role, store: StoreID, logger: Logger
    ) async throws -> User {
        try await createStoreAccount(email: email, name: name, password: password, role: role, store: store, scope: nil, logger: logger)
    }

    /// Creates a staff member or manager of `store` for one of its managers: another store is not
    /// found (404), the manager's `StoreScope` bound into the store's lookup.
    package func createStoreAccount(
        email: String, name: String, password: String, role: Role, store: StoreID, by manager: Identity, logger: Logger
    ) async throws -> User {
        let scope = try StoreScope(staff: manager)
        return try await createStoreAccount(
            email: email, name: name, password: password, role: role, store: store, scope: scope, logger: logger)
    }

    private func createStoreAccount(
        email: String, name: String, password: String, role: Role, store: StoreID, scope: StoreScope?, logger: Logger
    ) async throws -> User {
        guard role.worksInStore else { throw AccountError.invalidRole }
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        try AccountRules.password(password)
        let exists =
            if let scope {
                try await UserQueries.storeExists(store, scope: scope, on: database.client, logger: logger)
            } else {
                try await UserQueries.storeExists(store, on: database.client, logger: logger)
            }
        guard exists else { throw AccountError.storeNotFound }
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

    /// Creates one of the chain's admins (the CLI only: no route makes an admin). An admin
    /// belongs to no store.
    public func createAdmin(email: String, name: String, password: String, logger: Logger) async throws -> User {
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        try AccountRules.password(password)
        let hash = try await hasher.hash(password)
        return try await database.transaction(logger: logger) { connection in
            try await UserQueries.insert(
                email: email, name: name, passwordHash: hash, role: .admin, storeID: nil, on: connection, logger: logger)
        }
    }

    /// The store with this id or code, or nil.
    public func store(codeOrID: String, logger: Logger) async throws -> StoreID? {
        try await UserQueries.store(codeOrID: codeOrID, on: database.client, logger: logger)
    }
}
