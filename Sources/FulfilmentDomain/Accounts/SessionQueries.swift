import Foundation
import Logging
import PostgresNIO

/// The SQL of the sessions table.
package enum SessionQueries {
    /// Starts a session for a user who is not disabled; false when they are. The user's row is
    /// read `FOR SHARE`, so a manager disabling them at the same moment either waits for this
    /// session (and ends it) or is waited for (and no session starts).
    package static func start(userID: UserID, tokenHash: [UInt8], on connection: PostgresConnection, logger: Logger) async throws -> Bool {
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

    /// Resolves a token to its caller with `session_caller` (`sql/routines/session_caller.sql`): both lifetimes
    /// enforced with the database's clock, the use recorded at most every `touchSeconds`. The
    /// hottest routes include the same function in their own first statement instead (`Caller`).
    package static func lookUp(tokenHash: [UInt8], lifetime: SessionLifetime, on client: PostgresClient, logger: Logger) async throws -> SessionLookup
    {
        let rows = try await client.run(
            "SELECT \(unescaped: Caller.columns) FROM \(sessionCaller: tokenHash, lifetime: lifetime) c", logger: logger)
        return try rows.collect().first.map { try SessionLookup($0.makeRandomAccess()) } ?? .unknown
    }

    /// Ends the session the token `hash` stands for (one just made and not yet handed out).
    package static func end(tokenHash hash: [UInt8], reason: SessionEnd, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "UPDATE sessions SET ended_at = now(), ended_reason = \(reason.rawValue) WHERE token_hash = \(Data(hash)) AND ended_at IS NULL",
            logger: logger)
    }

    package static func end(_ id: SessionID, reason: SessionEnd, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "UPDATE sessions SET ended_at = now(), ended_reason = \(reason.rawValue) WHERE id = \(id.rawValue) AND ended_at IS NULL",
            logger: logger)
    }

    /// Ends every live session of a user, but `keeping` one (the session changing its password).
    @discardableResult
    package static func endAll(
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
