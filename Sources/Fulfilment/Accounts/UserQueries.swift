import Foundation
import Logging
import PostgresNIO

/// A user as the API shows it: never with the password hash.
public struct User: Sendable, Equatable {
    public var id: UserID
    public var email: String
    public var name: String
    public var role: Role
    public var storeID: StoreID?
    public var createdAt: Date
}

/// The SQL of the users, sessions and login_failures tables.
enum UserQueries {
    typealias UserRow = (UUID, String, String, String, UUID?, Date)

    static func user(_ row: UserRow) -> User {
        User(id: UserID(row.0), email: row.1, name: row.2, role: Role(rawValue: row.3) ?? .customer,
            storeID: row.4.map(StoreID.init), createdAt: row.5)
    }

    /// Inserts a user; a duplicate email (any case) is `AccountError.emailTaken`.
    static func insert(
        email: String, name: String, passwordHash: String, role: Role, storeID: StoreID?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> User {
        do {
            let rows = try await connection.query(
                """
                INSERT INTO users (email, name, password_hash, role, store_id)
                VALUES (\(email), \(name), \(passwordHash), \(role.rawValue), \(storeID?.rawValue))
                RETURNING id, email, name, role, store_id, created_at
                """, logger: logger)
            for try await row in rows.decode(UserRow.self) { return user(row) }
            throw APIError.internal
        } catch let error where error.sqlState == SQLState.uniqueViolation {
            throw AccountError.emailTaken
        } catch let error where error.sqlState == SQLState.foreignKeyViolation {
            throw AccountError.storeNotFound
        }
    }

    static func user(id: UserID, on client: PostgresClient, logger: Logger) async throws -> User? {
        let rows = try await client.query(
            "SELECT id, email, name, role, store_id, created_at FROM users WHERE id = \(id.rawValue)", logger: logger)
        for try await row in rows.decode(UserRow.self) { return user(row) }
        return nil
    }

    /// The user with this email (any case) and their password hash.
    static func credentials(email: String, on client: PostgresClient, logger: Logger) async throws -> (User, String)? {
        let rows = try await client.query(
            """
            SELECT id, email, name, role, store_id, created_at, password_hash
            FROM users WHERE lower(email) = lower(\(email))
            """, logger: logger)
        for try await row in rows.decode((UUID, String, String, String, UUID?, Date, String).self) {
            return (user((row.0, row.1, row.2, row.3, row.4, row.5)), row.6)
        }
        return nil
    }

    static func createSession(userID: UserID, tokenHash: [UInt8], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "INSERT INTO sessions (user_id, token_hash) VALUES (\(userID.rawValue), \(Data(tokenHash)))", logger: logger)
    }

    static func createSession(userID: UserID, tokenHash: [UInt8], on client: PostgresClient, logger: Logger) async throws {
        try await client.query(
            "INSERT INTO sessions (user_id, token_hash) VALUES (\(userID.rawValue), \(Data(tokenHash)))", logger: logger)
    }

    /// Resolves a live session and records its use (at most once a minute, to spare writes).
    static func identity(tokenHash: [UInt8], on client: PostgresClient, logger: Logger) async throws -> Identity? {
        let rows = try await client.query(
            """
            WITH live AS (
                SELECT id, user_id FROM sessions WHERE token_hash = \(Data(tokenHash)) AND ended_at IS NULL
            ), touched AS (
                UPDATE sessions SET last_used_at = now()
                WHERE id = (SELECT id FROM live) AND last_used_at < now() - interval '1 minute'
            )
            SELECT u.id, u.role, u.store_id, live.id FROM live JOIN users u ON u.id = live.user_id
            """, logger: logger)
        for try await (userID, role, storeID, sessionID) in rows.decode((UUID, String, UUID?, UUID).self) {
            guard let role = Role(rawValue: role) else { return nil }
            return Identity(userID: UserID(userID), role: role, storeID: storeID.map(StoreID.init), sessionID: SessionID(sessionID))
        }
        return nil
    }

    static func endSession(_ id: SessionID, on client: PostgresClient, logger: Logger) async throws {
        try await client.query("UPDATE sessions SET ended_at = now() WHERE id = \(id.rawValue) AND ended_at IS NULL", logger: logger)
    }

    // MARK: Login throttling

    /// Seconds until this email may try again, or nil when it may try now.
    static func lockedFor(emailKey: String, on client: PostgresClient, logger: Logger) async throws -> Int? {
        let rows = try await client.query(
            """
            SELECT ceil(extract(epoch FROM locked_until - now()))::int FROM login_failures
            WHERE email_key = \(emailKey) AND locked_until > now()
            """, logger: logger)
        for try await seconds in rows.decode(Int.self) { return max(seconds, 1) }
        return nil
    }

    /// Counts a failure inside the current window; the `limit`-th failure locks the email.
    static func recordFailure(
        emailKey: String, limit: Int, window: Int, lockout: Int, on client: PostgresClient, logger: Logger
    ) async throws {
        try await client.query(
            """
            INSERT INTO login_failures AS f (email_key, failures, first_failed_at)
            VALUES (\(emailKey), 1, now())
            ON CONFLICT (email_key) DO UPDATE SET
                failures = CASE WHEN f.first_failed_at < now() - make_interval(secs => \(window)) THEN 1 ELSE f.failures + 1 END,
                first_failed_at = CASE WHEN f.first_failed_at < now() - make_interval(secs => \(window)) THEN now() ELSE f.first_failed_at END,
                locked_until = CASE
                    WHEN f.first_failed_at >= now() - make_interval(secs => \(window)) AND f.failures + 1 >= \(limit)
                    THEN now() + make_interval(secs => \(lockout)) ELSE NULL END
            """, logger: logger)
    }

    static func clearFailures(emailKey: String, on client: PostgresClient, logger: Logger) async throws {
        try await client.query("DELETE FROM login_failures WHERE email_key = \(emailKey)", logger: logger)
    }

    static func storeExists(_ id: StoreID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.query("SELECT 1 FROM stores WHERE id = \(id.rawValue)", logger: logger)
        for try await _ in rows { return true }
        return false
    }
}

extension UserQueries {
    /// A store named by its id or its code (`QC-KGN`), for the command line.
    static func store(codeOrID: String, on client: PostgresClient, logger: Logger) async throws -> StoreID? {
        let id = UUID(uuidString: codeOrID)
        let rows = try await client.query(
            "SELECT id FROM stores WHERE id = \(id) OR code = \(codeOrID.uppercased())", logger: logger)
        for try await found in rows.decode(UUID.self) { return StoreID(found) }
        return nil
    }
}
