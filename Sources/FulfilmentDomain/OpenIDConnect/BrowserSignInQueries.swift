import Foundation
import Logging
import PostgresNIO

/// A browser sign-in under way (`provider_sign_ins`): from the redirect to the provider, through
/// the callback, to the password that links an existing account. Each row is used once.
package struct BrowserSignIn: Sendable {
    package var state: String
    package var providerID: UUID
    package var nonce: String
    package var codeVerifier: String
    package var redirectURI: String
    package var returnTo: String
    /// Set when the provider vouched for `email` but its account needs its password to link.
    package var subject: String?
    package var email: String?
    package var userID: UserID?
}

package enum BrowserSignInQueries {
    /// The sign-in a statement returned (`provider_sign_ins`' columns, read by name), or nil.
    private static func first(_ rows: SQLRows) async throws -> BrowserSignIn? {
        for try await row in rows {
            let r = row.makeRandomAccess()
            return BrowserSignIn(
                state: try r["state"].decode(String.self), providerID: try r["provider_id"].decode(UUID.self),
                nonce: try r["nonce"].decode(String.self), codeVerifier: try r["code_verifier"].decode(String.self),
                redirectURI: try r["redirect_uri"].decode(String.self), returnTo: try r["return_to"].decode(String.self),
                subject: try r["subject"].decode(String?.self), email: try r["email"].decode(String?.self),
                userID: try r["user_id"].decode(UUID?.self).map(UserID.init))
        }
        return nil
    }

    /// How long a sign-in may take, from the redirect to the provider to the password that links.
    package static let lifetime = "10 minutes"

    package static func start(_ signIn: BrowserSignIn, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            """
            WITH old AS (DELETE FROM provider_sign_ins WHERE created_at < now() - \(lifetime)::interval)
            INSERT INTO provider_sign_ins (state, provider_id, nonce, code_verifier, redirect_uri, return_to)
            VALUES (\(signIn.state), \(signIn.providerID), \(signIn.nonce), \(signIn.codeVerifier), \(signIn.redirectURI), \(signIn.returnTo))
            """, logger: logger)
    }

    /// Takes the sign-in with this state out (it is used once), if it is young enough;
    /// `awaitingPassword` picks the rows a callback left waiting for a password, or those it did not.
    package static func take(
        state: String, awaitingPassword: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> BrowserSignIn? {
        let rows = try await connection.run(
            """
            DELETE FROM provider_sign_ins
            WHERE state = \(state) AND created_at >= now() - \(lifetime)::interval AND (subject IS NOT NULL) = \(awaitingPassword)
            RETURNING state, provider_id, nonce, code_verifier, redirect_uri, return_to, subject, email, user_id
            """, logger: logger)
        return try await first(rows)
    }

    /// Puts a sign-in back to wait for the password of `user`'s account.
    package static func awaitPassword(
        _ signIn: BrowserSignIn, subject: String, email: String, user: UserID, on client: PostgresClient, logger: Logger
    )
        async throws
    {
        try await client.run(
            """
            INSERT INTO provider_sign_ins (state, provider_id, nonce, code_verifier, redirect_uri, return_to, subject, email, user_id)
            VALUES (\(signIn.state), \(signIn.providerID), \(signIn.nonce), '', \(signIn.redirectURI), \(signIn.returnTo),
                    \(subject), \(email), \(user.rawValue))
            """, logger: logger)
    }

    /// A sign-in waiting for a password, read without using it (the page that asks for it).
    package static func waiting(state: String, on client: PostgresClient, logger: Logger) async throws -> BrowserSignIn? {
        let rows = try await client.run(
            """
            SELECT state, provider_id, nonce, code_verifier, redirect_uri, return_to, subject, email, user_id FROM provider_sign_ins
            WHERE state = \(state) AND subject IS NOT NULL AND created_at >= now() - \(lifetime)::interval
            """, logger: logger)
        return try await first(rows)
    }
}
