import HTTPTypes

/// Everything that can go wrong with accounts and sign-in, and how each looks over HTTP.
package enum AccountError: Error, APIErrorConvertible, Equatable, DatabaseErrorMapping {
    case invalidEmail
    case invalidName
    case passwordTooShort
    case passwordTooLong
    case passwordMismatch
    case emailTaken
    case invalidCredentials
    case throttled(retryAfterSeconds: Int)
    case storeNotFound
    case invalidRole
    /// The bcrypt queue is full (`BcryptQueue`): nothing was tried; try again in a second.
    case busy
    /// The right password for an account a manager has disabled. Only someone who knows the
    /// password learns this, so it tells an attacker nothing about which emails exist.
    case accountDisabled
    /// Changing a password: the current password given is wrong.
    case wrongPassword
    /// Changing a password: it was changed by another request in the meantime.
    case passwordChangedMeanwhile
    /// No staff member or manager with that id works at that store.
    case staffNotFound
    /// A manager cannot disable their own account (the store could be left with no manager).
    case cannotDisableSelf
    /// A write that returns its row returned none (a 500: it cannot happen).
    case notRecorded
    /// A password reset or email confirmation link that does not work (issue 44): unknown,
    /// used, expired, or ended by a newer one. Which of these is in `details.reason`.
    case linkNotValid(reason: String)
    /// Too many password resets asked for one address, or from one client, within the hour.
    case resetsThrottled(retryAfterSeconds: Int)
    /// One of the rules above, reported against another field of the request (a new password's).
    indirect case inField(AccountError, field: String)

    /// PostgreSQL's refusals of an account's statements: the unique index on `lower(email)`, and
    /// the foreign key of a staff member's store.
    package init?(databaseError error: any Error) {
        switch error.sqlState {
        case SQLState.uniqueViolation?: self = .emailTaken
        case SQLState.foreignKeyViolation?: self = .storeNotFound
        default: return nil
        }
    }

    package var apiError: APIError {
        switch self {
        case .invalidEmail:
            APIError(.unprocessableContent, "invalid_email", "That is not a valid email address.", details: ["field": "email"])
        case .invalidName:
            APIError(.unprocessableContent, "invalid_field", "A name of 1 to 200 characters is required.", details: ["field": "name"])
        case .passwordTooShort:
            APIError(
                .unprocessableContent, "password_too_short",
                "The password must have at least \(AccountRules.minimumPasswordLength) characters.", details: ["field": "password"])
        case .passwordTooLong:
            APIError(
                .unprocessableContent, "password_too_long",
                "The password must be at most \(AccountRules.maximumPasswordBytes) bytes.", details: ["field": "password"])
        case .passwordMismatch:
            APIError(
                .unprocessableContent, "password_mismatch", "The password confirmation does not match.",
                details: ["field": "passwordConfirmation"])
        case .emailTaken:
            APIError(.conflict, "email_taken", "An account with that email already exists.")
        case .invalidCredentials:
            APIError(.unauthorized, "invalid_credentials", "The email or password is wrong.")
        case .throttled(let seconds):
            APIError(
                .tooManyRequests, "too_many_attempts", "Too many failed sign-ins; try again in \(seconds) seconds.",
                details: ["retryAfterSeconds": .int(seconds)], headers: [.retryAfter: String(seconds)])
        case .storeNotFound:
            APIError(.notFound, "not_found", "That store was not found.")
        case .invalidRole:
            APIError(.unprocessableContent, "invalid_field", "The role must be staff or manager.", details: ["field": "role"])
        case .busy:
            APIError(
                .tooManyRequests, "busy", "Too many sign-ins at once; try again in a second.",
                details: ["retryAfterSeconds": 1], headers: [.retryAfter: "1"])
        case .accountDisabled:
            APIError(.forbidden, "account_disabled", "This account has been disabled; ask a manager of your store.")
        case .wrongPassword:
            APIError(.unprocessableContent, "wrong_password", "The current password is wrong.", details: ["field": "currentPassword"])
        case .passwordChangedMeanwhile:
            APIError(.conflict, "password_changed", "The password was changed by another request; sign in again.")
        case .staffNotFound:
            APIError(.notFound, "not_found", "No staff member with that id works at this store.")
        case .cannotDisableSelf:
            APIError(.conflict, "cannot_disable_self", "A manager cannot disable their own account.")
        case .notRecorded: .internal
        case .linkNotValid(let reason):
            APIError(
                .gone, "link_not_valid", "This link no longer works (\(reason.replacingOccurrences(of: "_", with: " "))); ask for a new one.",
                details: ["reason": .string(reason)])
        case .resetsThrottled(let seconds):
            APIError(
                .tooManyRequests, "too_many_requests", "Too many password resets were asked for; try again in \(seconds) seconds.",
                details: ["retryAfterSeconds": .int(seconds)], headers: [.retryAfter: String(seconds)])
        case .inField(let error, let field): error.apiError.naming(field: field)
        }
    }
}
