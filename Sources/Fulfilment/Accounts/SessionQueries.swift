import Foundation
import Logging
import PostgresNIO

/// What a presented token turned out to be.
enum SessionLookup: Sendable, Equatable {
    case live(Identity)
    /// A real session that went idle too long or outlived its maximum age.
    case expired
    /// No such session, or it was ended (logout, a disabled account, a password change).
    case unknown
}

/// Why a session was ended, as `sessions.ended_reason` records it.
enum SessionEnd: String, Sendable {
    case logout
    case disabled
    case passwordChanged = "password_changed"
}

/// The SQL of the sessions table.
enum SessionQueries {
    /// Starts a session for a user who is not disabled; false when they are. The user's row is
    /// read `FOR SHARE`, so a manager disabling them at the same moment either waits for this
    /// session (and ends it) or is waited for (and no session starts).
    static func start(userID: UserID, tokenHash: [UInt8], on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.run(
            """
            WITH account AS (
                SELECT id FROM users WHERE id = \(userID.rawValue) AND disabled_at IS NULL FOR SHARE
            )
            INSERT INTO sessions (user_id, token_hash) SELECT id, \(Data(tokenHash)) FROM account
            RETURNING id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Resolves a token to its caller, enforcing both lifetimes with the database's clock, and
    /// records the use (at most every `touchSeconds`, to spare a write per request). An
    /// expired session is not touched, so it stays expired.
    static func lookUp(tokenHash: [UInt8], lifetime: SessionLifetime, on client: PostgresClient, logger: Logger) async throws -> SessionLookup {
        let rows = try await client.run(
            """
            WITH found AS (
                SELECT s.id, s.user_id,
                    s.last_used_at <= now() - make_interval(secs => \(lifetime.idleSeconds))
                        OR s.created_at <= now() - make_interval(secs => \(lifetime.maximumSeconds)) AS expired
                FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = \(Data(tokenHash)) AND s.ended_at IS NULL AND u.disabled_at IS NULL
            ), touched AS (
                UPDATE sessions SET last_used_at = now()
                WHERE id = (SELECT id FROM found WHERE NOT expired)
                    AND last_used_at < now() - make_interval(secs => \(lifetime.touchSeconds))
            )
            SELECT u.id, u.role, u.store_id, found.id, found.expired FROM found JOIN users u ON u.id = found.user_id
            """, logger: logger)
        for try await (userID, role, storeID, sessionID, expired) in rows.decode((UUID, String, UUID?, UUID, Bool).self) {
            if expired { return .expired }
            guard let role = Role(rawValue: role) else { return .unknown }
            return .live(Identity(userID: UserID(userID), role: role, storeID: storeID.map(StoreID.init), sessionID: SessionID(sessionID)))
        }
        return .unknown
    }

    static func end(_ id: SessionID, reason: SessionEnd, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "UPDATE sessions SET ended_at = now(), ended_reason = \(reason.rawValue) WHERE id = \(id.rawValue) AND ended_at IS NULL",
            logger: logger)
    }

    /// Ends every live session of a user, but `keeping` one (the session changing its password).
    @discardableResult
    static func endAll(
        of user: UserID, keeping kept: SessionID? = nil, reason: SessionEnd, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        let rows = try await connection.run(
            """
            UPDATE sessions SET ended_at = now(), ended_reason = \(reason.rawValue)
            WHERE user_id = \(user.rawValue) AND ended_at IS NULL AND id IS DISTINCT FROM \(kept?.rawValue)
            RETURNING id
            """, logger: logger)
        var ended = 0
        for try await _ in rows { ended += 1 }
        return ended
    }
}
