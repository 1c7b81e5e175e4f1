import Foundation
import Logging

/// Erasing an account (issue 32): the customer themselves (after proving their password), the
/// chain's admin on a customer's request, a store's manager when a staff member leaves. One
/// statement does it (`erase_account`): what is personal is deleted, what the shop's books need
/// stays under a tombstone, and who erased whom is recorded.
package struct Erasures: Sendable {
    package let database: Database
    package let accounts: Accounts

    package enum Content: String, Sendable {
        /// Recipes, comments and reviews stay, attributed to "a former customer".
        case keep
        /// They are deleted too.
        case delete
    }

    package func eraseSelf(_ identity: Identity, password: String, content: Content, logger: Logger) async throws {
        _ = try await accounts.confirmPassword(password, of: identity, logger: logger)
        try await erase(identity.userID, by: identity.userID, reason: "own_request", content: content, logger: logger)
    }

    /// The chain's admin erases a customer's account on their request.
    package func eraseCustomer(_ user: UserID, by admin: Identity, content: Content, logger: Logger) async throws {
        guard try await PrivacyQueries.role(of: user, on: database.client, logger: logger) == .customer else {
            throw PrivacyError.userNotFound
        }
        try await erase(user, by: admin.userID, reason: "admin_request", content: content, logger: logger)
    }

    /// A store's manager erases a staff member (or another manager) of their store who left.
    package func eraseStaff(_ user: UserID, by manager: Identity, logger: Logger) async throws {
        let scope = try StoreScope(staff: manager)
        guard user != manager.userID else { throw PrivacyError.cannotEraseSelf }
        guard try await PrivacyQueries.isStaff(user, in: scope, on: database.client, logger: logger) else { throw PrivacyError.userNotFound }
        try await erase(user, by: manager.userID, reason: "staff_left", content: .keep, logger: logger)
    }

    private func erase(_ user: UserID, by: UserID, reason: String, content: Content, logger: Logger) async throws {
        if let refusal = try await PrivacyQueries.erase(
            user, by: by, reason: reason, deleteContent: content == .delete, on: database.client, logger: logger)
        {
            throw PrivacyError.openOrders(refusal)
        }
        logger.notice("account erased", metadata: ["user": "\(user)", "by": "\(by)", "reason": "\(reason)"])
    }
}
