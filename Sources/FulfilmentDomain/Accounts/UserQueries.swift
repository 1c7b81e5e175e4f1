import Foundation
import Logging
import PostgresNIO

/// The SQL of the users table (sessions: `SessionQueries`; throttling: `LoginThrottleQueries`).
package enum UserQueries {
    /// A user from a row of `users`' columns `id, email, name, role, store_id, created_at, disabled_at`.
    package static func user(_ row: PostgresRow) throws -> User {
        let r = row.makeRandomAccess()
        return User(
            id: UserID(try r["id"].decode(UUID.self)), email: try r["email"].decode(String.self), name: try r["name"].decode(String.self),
            role: try r["role"].stored(Role.self), storeID: try r["store_id"].decode(UUID?.self).map(StoreID.init),
            createdAt: try r["created_at"].decode(Date.self), disabledAt: try r["disabled_at"].decode(Date?.self))
    }

    /// Inserts a user; a duplicate email (any case) is `AccountError.emailTaken`, a store that
    /// does not exist `storeNotFound` (`AccountError.init(databaseError:)`).
    package static func insert(
        email: String, name: String, passwordHash: String, role: Role, storeID: StoreID?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> User {
        let inserted: User? = try await AccountError.mappingDatabaseErrors {
            let rows = try await connection.run(
                """
                INSERT INTO users (email, name, password_hash, role, store_id)
                VALUES (\(email), \(name), \(passwordHash), \(role.rawValue), \(storeID?.rawValue))
                RETURNING id, email, name, role, store_id, created_at, disabled_at
                """, logger: logger)
            for try await row in rows { return try user(row) }
            return nil
        }
        guard let inserted else { throw AccountError.notRecorded }
        return inserted
    }

    package static func user(id: UserID, on client: PostgresClient, logger: Logger) async throws -> User? {
        let rows = try await client.run(
            "SELECT id, email, name, role, store_id, created_at, disabled_at FROM users WHERE id = \(id.rawValue)", logger: logger)
        for try await row in rows { return try user(row) }
        return nil
    }

    /// The user with this email (any case) and their password hash.
    package static func credentials(email: String, on client: PostgresClient, logger: Logger) async throws -> (User, String)? {
        let rows = try await client.run(
            """
            SELECT id, email, name, role, store_id, created_at, disabled_at, password_hash
            FROM users WHERE lower(email) = lower(\(email))
            """, logger: logger)
        for try await row in rows { return (try user(row), try row.makeRandomAccess()["password_hash"].decode(String.self)) }
        return nil
    }

    /// A signed-in user and their password hash, for changing the password.
    package static func credentials(id: UserID, on client: PostgresClient, logger: Logger) async throws -> (User, String)? {
        let rows = try await client.run(
            """
            SELECT id, email, name, role, store_id, created_at, disabled_at, password_hash
            FROM users WHERE id = \(id.rawValue)
            """, logger: logger)
        for try await row in rows { return (try user(row), try row.makeRandomAccess()["password_hash"].decode(String.self)) }
        return nil
    }

    /// Replaces a password hash only if it is still `expected`, so two changes at once
    /// cannot both succeed; false when it was changed meanwhile.
    package static func replacePassword(
        of id: UserID, expected: String, with newHash: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        let rows = try await connection.run(
            """
            UPDATE users SET password_hash = \(newHash)
            WHERE id = \(id.rawValue) AND password_hash = \(expected) AND disabled_at IS NULL
            RETURNING id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Disables (or enables) a staff member or manager of `store`; nil when no such person works
    /// there, or `store` is not the caller's (`scope`). The row is locked, so session starts that
    /// read it `FOR SHARE` wait for this.
    package static func setDisabled(
        _ disabled: Bool, user id: UserID, store: StoreID, scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> User? {
        let rows = try await connection.run(
            """
            UPDATE users SET disabled_at = CASE WHEN \(disabled) THEN coalesce(disabled_at, now()) ELSE NULL END
            WHERE id = \(id.rawValue) AND store_id = \(store.rawValue) AND store_id = \(scope) AND role IN ('staff', 'manager')
            RETURNING id, email, name, role, store_id, created_at, disabled_at
            """, logger: logger)
        for try await row in rows { return try user(row) }
        return nil
    }

    /// The store's staff and managers, managers first, then by name (at most 500: a store's
    /// people fit one page).
    package static func staff(of store: StoreID, scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> [User] {
        let rows = try await client.read(
            """
            SELECT id, email, name, role, store_id, created_at, disabled_at FROM users
            WHERE store_id = \(store.rawValue) AND store_id = \(scope) AND role IN ('staff', 'manager')
            ORDER BY role = 'staff', lower(name), id
            LIMIT 500
            """, logger: logger)
        var users: [User] = []
        for try await row in rows { users.append(try user(row)) }
        return users
    }

    package static func storeExists(_ id: StoreID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run("SELECT 1 FROM stores WHERE id = \(id.rawValue)", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Whether the store exists and is the caller's (`scope`): another store is not found.
    package static func storeExists(_ id: StoreID, scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run("SELECT 1 FROM stores WHERE id = \(id.rawValue) AND id = \(scope)", logger: logger)
        for try await _ in rows { return true }
        return false
    }
}

extension UserQueries {
    /// A store named by its id or its code (`QC-KGN`), for the command line.
    package static func store(codeOrID: String, on client: PostgresClient, logger: Logger) async throws -> StoreID? {
        let id = UUID(uuidString: codeOrID)
        let rows = try await client.run(
            "SELECT id FROM stores WHERE id = \(id) OR code = \(codeOrID.uppercased())", logger: logger)
        for try await found in rows.decode(UUID.self) { return StoreID(found) }
        return nil
    }
}
