import Foundation
import Logging
import PostgresNIO

/// Inviting someone to a store's team (issue 46): the manager gives a name, an address and a
/// role, never a password for someone else. The account is made without one
/// (`Accounts.noPassword`, which nothing matches) and a password-reset link that works once for
/// seven days is mailed as an invitation: the same `password_resets` row and the same page that
/// sets a password after "Forgot your password?", so there is one way to choose a password.
extension PasswordResets {
    /// How long an invitation's link works.
    package static let invitationDays = 7

    /// Adds `email` to the manager's store as `role` and queues its invitation, in one
    /// transaction: an address already taken writes nothing (`409 email_taken`).
    package func invite(email: String, name: String, role: Role, store: StoreID, by manager: Identity, logger: Logger) async throws -> User {
        let scope = try StoreScope(staff: manager)
        guard manager.role == .manager, scope.store == store else { throw AccountError.storeNotFound }
        guard role.worksInStore else { throw AccountError.invalidRole }
        let email = try AccountRules.email(email)
        let name = try AccountRules.name(name)
        let id = UUID()
        let key = dataKeys.current.current
        let token = LinkToken.make(.passwordReset, id: id, key: key)
        let inviter = try await MessageContentQueries.name(of: manager.userID, on: database.client, logger: logger)
        let user = try await database.transaction(logger: logger) { connection in
            let user = try await UserQueries.insert(
                email: email, name: name, passwordHash: Accounts.noPassword, role: role, storeID: store, on: connection, logger: logger)
            try await connection.run(
                """
                WITH link AS (
                    INSERT INTO password_resets (id, user_id, token_hash, key_id, expires_at)
                    VALUES (\(id), \(user.id.rawValue), \(Data(LinkToken.hash(token))), \(Int32(key.id)),
                            now() + make_interval(days => \(Int32(Self.invitationDays))))
                    RETURNING id)
                SELECT queue_message(\(store.rawValue), NULL, \(user.id.rawValue), 'staff_invite', (SELECT id FROM link)::text,
                                     jsonb_build_object('linkId', (SELECT id FROM link), 'role', \(role.rawValue)::text, 'invitedBy', \(inviter)::text))
                """, logger: logger)
            return user
        }
        logger.info("staff invited", metadata: ["user": "\(user.id)", "by": "\(manager.userID)"])
        return user
    }
}
