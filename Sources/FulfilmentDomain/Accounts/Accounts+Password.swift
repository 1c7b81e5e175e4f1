import Logging

extension Accounts {
    /// The hash of an account with no password (made through an identity provider): no password matches it.
    package static let noPassword = "!"

    /// Changes the caller's password and ends every other session of theirs, in one
    /// transaction; the session that asked stays signed in.
    ///
    /// The current password is checked like a sign-in (throttled, through the bcrypt queue),
    /// so a stolen session cannot be used to guess it. The new hash replaces the old only if
    /// no other change landed meanwhile (409 `password_changed`).
    package func changePassword(
        _ identity: Identity, current: String, new: String, confirmation: String, logger: Logger
    ) async throws {
        do {
            try AccountRules.password(new, confirmation: confirmation)
        } catch {
            // The same rules as registration, reported against this request's field names.
            throw AccountError.inField(error, field: error == .passwordMismatch ? "newPasswordConfirmation" : "newPassword")
        }
        let (user, oldHash) = try await confirmPassword(current, of: identity, logger: logger)
        let newHash = try await hasher.hash(new, lane: .other)
        try await database.transaction(logger: logger) { connection in
            guard try await UserQueries.replacePassword(of: user.id, expected: oldHash, with: newHash, on: connection, logger: logger) else {
                throw AccountError.passwordChangedMeanwhile
            }
            try await SessionQueries.endAll(of: user.id, keeping: identity.sessionID, reason: .passwordChanged, on: connection, logger: logger)
        }
        logger.info("password changed; other sessions ended", metadata: ["user": "\(user.id)"])
    }

    /// The signed-in caller proves their password again (changing it, erasing the account):
    /// checked under the login throttle, `wrongPassword` when it is not theirs. Answers the
    /// account and its hash as they were.
    package func confirmPassword(_ password: String, of identity: Identity, logger: Logger) async throws -> (User, String) {
        // No password is longer (the rules cap it for bcrypt), so a longer one cannot be right.
        guard password.utf8.count <= AccountRules.maximumPasswordBytes else { throw AccountError.wrongPassword }
        guard let (user, hash) = try await UserQueries.credentials(id: identity.userID, on: database.client, logger: logger) else {
            throw AccessError.unauthenticated
        }
        // An account made through an identity provider has no password to prove (`!`); its
        // session is its only credential, and an empty password stands for it (so it can set a
        // first password, or erase itself). Issue 33.
        if hash == Self.noPassword {
            guard password.isEmpty else { throw AccountError.wrongPassword }
            return (user, hash)
        }
        let (_, matches) = try await checkPassword(
            password, emailKey: user.email.lowercased(), address: ClientAddress.current, lane: .other, logger: logger
        ) { (user, hash) }
        guard matches else { throw AccountError.wrongPassword }
        return (user, hash)
    }
}
