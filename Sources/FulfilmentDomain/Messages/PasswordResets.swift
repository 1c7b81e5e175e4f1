import Foundation
import Logging
import PostgresNIO

/// "Forgot your password?" (issue 44): a link by email, valid once for 30 minutes, that sets a
/// new password and ends every session. Also how an account made through an identity provider
/// sets a first password.
package struct PasswordResets: Sendable {
    package let database: Database
    package let accounts: Accounts
    package let dataKeys: DataKeyStore

    /// Resets one address may ask for, and one client, within an hour.
    package static let perAddress = 3
    package static let perClient = 20

    package init(database: Database, accounts: Accounts, dataKeys: DataKeyStore) {
        self.database = database
        self.accounts = accounts
        self.dataKeys = dataKeys
    }

    /// Asks for a reset of the account with `email`, if there is one: the same work and the same
    /// answer either way (`request_password_reset`). Throws only `resetsThrottled`, counted
    /// whether or not the address has an account, so it tells nothing either.
    package func request(email raw: String, logger: Logger) async throws {
        // No address is longer (the contract's bound); checked whatever the address, it tells nothing.
        guard raw.utf8.count <= 320 else { throw AccountError.invalidEmail }
        let emailKey = String(raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().prefix(254))
        let id = UUID()
        let key = dataKeys.current.current
        let token = LinkToken.make(.passwordReset, id: id, key: key)
        let client = String(ClientAddress.current.prefix(100))
        let wait = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run(
                """
                SELECT request_password_reset(\(emailKey), \(client), \(id), \(Data(LinkToken.hash(token))), \(Int32(key.id)),
                                              \(Int32(Self.perAddress)), \(Int32(Self.perClient)))
                """, logger: logger)
            for try await wait in rows.decode(Int32.self) { return Int(wait) }
            throw AccountError.notRecorded
        }
        if wait > 0 { throw AccountError.resetsThrottled(retryAfterSeconds: wait) }
    }

    /// Sets the password of the account a reset link names and ends every session of it. The
    /// link is checked before the bcrypt work and again, under a lock, when it is used.
    package func confirm(token: String, newPassword: String, confirmation: String? = nil, logger: Logger) async throws {
        guard token.utf8.count <= LinkToken.maximumLength else { throw APIError.invalidField("token", "A link's token is at most 200 characters.") }
        do {
            try AccountRules.password(newPassword, confirmation: confirmation)
        } catch {
            throw AccountError.inField(error, field: error == .passwordMismatch ? "newPasswordConfirmation" : "newPassword")
        }
        guard LinkToken.verify(token, purpose: .passwordReset, keys: dataKeys) != nil else { throw AccountError.linkNotValid(reason: "unknown") }
        let hash = Data(LinkToken.hash(token))
        let state = try await status(of: hash, logger: logger)
        guard state == "ok" else { throw AccountError.linkNotValid(reason: state) }
        let newHash = try await accounts.hasher.hash(newPassword, lane: .other)
        let outcome = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run("SELECT confirm_password_reset(\(hash), \(newHash))", logger: logger)
            for try await outcome in rows.decode(String.self) { return outcome }
            throw AccountError.notRecorded
        }
        guard outcome == "ok" else { throw AccountError.linkNotValid(reason: outcome) }
        logger.info("password reset; every session ended")
    }

    /// Whether the link still works, without using it: `ok`, or why not (the reset page asks
    /// before it shows the form).
    package func status(of token: String, logger: Logger) async throws -> String {
        guard LinkToken.verify(token, purpose: .passwordReset, keys: dataKeys) != nil else { return "unknown" }
        return try await status(of: Data(LinkToken.hash(token)), logger: logger)
    }

    private func status(of hash: Data, logger: Logger) async throws -> String {
        let rows = try await database.client.run(
            """
            SELECT link_state(r.used_at, r.ended_at, r.expires_at) FROM password_resets r WHERE r.token_hash = \(hash)
            """, logger: logger)
        for try await state in rows.decode(String.self) { return state }
        return "unknown"
    }
}
