import Logging

extension Accounts {
    /// The people of a manager's own store (issue 46: the console's People page): another
    /// store's are not found (an empty list would say the store exists and is empty).
    package func staff(of store: StoreID, by manager: Identity, logger: Logger) async throws -> [User] {
        let scope = try StoreScope(staff: manager)
        guard scope.contains(store) else { throw AccountError.storeNotFound }
        return try await UserQueries.staff(of: store, scope: scope, on: database.client, logger: logger)
    }

    /// Disables a staff member or manager of `store` and ends all their sessions in the same
    /// transaction: the next request with any of their tokens is 401, and signing in answers
    /// 403 `account_disabled`. Disabling twice is harmless (the first time is kept).
    package func disableStaff(_ user: UserID, at store: StoreID, by manager: Identity, logger: Logger) async throws -> User {
        let scope = try StoreScope(staff: manager)
        guard user != manager.userID else { throw AccountError.cannotDisableSelf }
        return try await database.transaction(logger: logger) { connection in
            guard let disabled = try await UserQueries.setDisabled(true, user: user, store: store, scope: scope, on: connection, logger: logger)
            else {
                throw AccountError.staffNotFound
            }
            let ended = try await SessionQueries.endAll(of: user, reason: .disabled, on: connection, logger: logger)
            logger.info("staff account disabled", metadata: ["user": "\(user)", "by": "\(manager.userID)", "sessions_ended": "\(ended)"])
            return disabled
        }
    }

    /// Lets a disabled staff member or manager of `store` sign in again. Their old sessions
    /// stay ended.
    package func enableStaff(_ user: UserID, at store: StoreID, by manager: Identity, logger: Logger) async throws -> User {
        let scope = try StoreScope(staff: manager)
        return try await database.transaction(logger: logger) { connection in
            guard let enabled = try await UserQueries.setDisabled(false, user: user, store: store, scope: scope, on: connection, logger: logger)
            else {
                throw AccountError.staffNotFound
            }
            logger.info("staff account enabled", metadata: ["user": "\(user)", "by": "\(manager.userID)"])
            return enabled
        }
    }
}
