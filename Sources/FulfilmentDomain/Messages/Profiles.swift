import Foundation
import Logging
import PostgresNIO

/// What a person keeps right about themselves (issue 44): their name (the accuracy principle of
/// data protection law), their email address (changed only once the new address confirms, with a
/// notice to the old one), and which optional messages they get.
package struct Profiles: Sendable {
    package let database: Database
    package let accounts: Accounts
    package let dataKeys: DataKeyStore

    package init(database: Database, accounts: Accounts, dataKeys: DataKeyStore) {
        self.database = database
        self.accounts = accounts
        self.dataKeys = dataKeys
    }

    /// The optional messages a customer gets; transactional ones always go.
    package struct Preferences: Sendable, Equatable {
        package var backInStock: Bool
        package var reminders: Bool

        package init(backInStock: Bool, reminders: Bool) {
            self.backInStock = backInStock
            self.reminders = reminders
        }
    }

    /// The account's preferences and the address it is changing to, if one waits for confirmation.
    package struct Profile: Sendable, Equatable {
        package var preferences: Preferences
        package var pendingEmail: String?
    }

    package func profile(of user: UserID, logger: Logger) async throws -> Profile {
        let rows = try await database.client.run(
            """
            SELECT u.wants_back_in_stock, u.wants_reminders,
                   (SELECT c.new_email FROM email_changes c
                    WHERE c.user_id = u.id AND c.confirmed_at IS NULL AND c.ended_at IS NULL AND c.expires_at > now()
                    ORDER BY c.created_at DESC LIMIT 1) AS pending_email
            FROM users u WHERE u.id = \(user.rawValue)
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return Profile(
                preferences: Preferences(
                    backInStock: try r["wants_back_in_stock"].decode(Bool.self), reminders: try r["wants_reminders"].decode(Bool.self)),
                pendingEmail: try r["pending_email"].decode(String?.self))
        }
        throw AccessError.unauthenticated
    }

    /// Changes what was given, in one transaction: the name at once, the preferences at once,
    /// and for a new email address a confirmation link to it and a notice to the old one (the
    /// address changes only when confirmed). The same address as now (in any case) changes nothing.
    package func update(
        _ identity: Identity, name: String?, email: String?, preferences: Preferences?, logger: Logger
    ) async throws -> (User, Profile) {
        let name = try name.map(AccountRules.name)
        let email = try email.map(AccountRules.email)
        let current = try await accounts.me(identity, logger: logger)
        let changesEmail = email.map { $0.lowercased() != current.email.lowercased() } ?? false
        let id = UUID()
        let key = dataKeys.current.current
        let tokenHash = Data(LinkToken.hash(LinkToken.make(.emailChange, id: id, key: key)))
        try await database.transaction(logger: logger) { connection in
            if let name {
                try await connection.run("UPDATE users SET name = \(name) WHERE id = \(identity.userID.rawValue)", logger: logger)
            }
            if let preferences {
                try await connection.run(
                    """
                    UPDATE users SET wants_back_in_stock = \(preferences.backInStock), wants_reminders = \(preferences.reminders)
                    WHERE id = \(identity.userID.rawValue)
                    """, logger: logger)
            }
            if let email, changesEmail {
                let rows = try await connection.run(
                    "SELECT request_email_change(\(identity.userID.rawValue), \(email), \(id), \(tokenHash), \(Int32(key.id)))",
                    logger: logger)
                for try await outcome in rows.decode(String.self) where outcome == "email_taken" {
                    throw AccountError.inField(.emailTaken, field: "email")
                }
            }
        }
        return (try await accounts.me(identity, logger: logger), try await profile(of: identity.userID, logger: logger))
    }

    /// Confirms a new address from its link: the account uses it from now on. Signed in or not:
    /// the link is the proof of the address, and the old address was told when it was asked for.
    package func confirmEmail(token: String, logger: Logger) async throws -> UserID {
        guard token.utf8.count <= LinkToken.maximumLength else { throw APIError.invalidField("token", "A link's token is at most 200 characters.") }
        guard LinkToken.verify(token, purpose: .emailChange, keys: dataKeys) != nil else { throw AccountError.linkNotValid(reason: "unknown") }
        let hash = Data(LinkToken.hash(token))
        let outcome = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run("SELECT confirm_email_change(\(hash))", logger: logger)
            for try await outcome in rows.decode(String.self) { return outcome }
            throw AccountError.notRecorded
        }
        if outcome == "email_taken" { throw AccountError.emailTaken }
        guard let user = UserID(outcome) else { throw AccountError.linkNotValid(reason: outcome) }
        logger.info("email address changed", metadata: ["user": "\(user)"])
        return user
    }

    /// One click from a message's unsubscribe link (RFC 8058): the optional kind it came with
    /// stops for the account the link's token names (an HMAC of the account's id, so it works
    /// without signing in and cannot be made for another account). Answers whether it named one.
    package func unsubscribe(token: String, kind: MessageKind, logger: Logger) async throws -> Bool {
        guard kind.isOptional, let user = LinkToken.verify(token, purpose: .unsubscribe, keys: dataKeys) else { return false }
        let column: PostgresQuery =
            kind == .backInStock
            ? "UPDATE users SET wants_back_in_stock = false WHERE id = \(user) RETURNING id"
            : "UPDATE users SET wants_reminders = false WHERE id = \(user) RETURNING id"
        return try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run(column, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }
}
