import HTTPTypes

/// Everything that can go wrong with accounts and sign-in, and how each looks over HTTP.
enum AccountError: Error, APIErrorConvertible, Equatable {
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

    var apiError: APIError {
        switch self {
        case .invalidEmail:
            APIError(.unprocessableContent, "invalid_email", "That is not a valid email address.", details: ["field": "email"])
        case .invalidName:
            APIError(.unprocessableContent, "invalid_field", "A name of 1 to 200 characters is required.", details: ["field": "name"])
        case .passwordTooShort:
            APIError(.unprocessableContent, "password_too_short",
                "The password must have at least \(AccountRules.minimumPasswordLength) characters.", details: ["field": "password"])
        case .passwordTooLong:
            APIError(.unprocessableContent, "password_too_long",
                "The password must be at most \(AccountRules.maximumPasswordBytes) bytes.", details: ["field": "password"])
        case .passwordMismatch:
            APIError(.unprocessableContent, "password_mismatch", "The password confirmation does not match.",
                details: ["field": "passwordConfirmation"])
        case .emailTaken:
            APIError(.conflict, "email_taken", "An account with that email already exists.")
        case .invalidCredentials:
            APIError(.unauthorized, "invalid_credentials", "The email or password is wrong.")
        case .throttled(let seconds):
            APIError(.tooManyRequests, "too_many_attempts", "Too many failed sign-ins; try again in \(seconds) seconds.",
                details: ["retryAfterSeconds": .int(seconds)], headers: [.retryAfter: String(seconds)])
        case .storeNotFound:
            APIError(.notFound, "not_found", "That store was not found.")
        case .invalidRole:
            APIError(.unprocessableContent, "invalid_field", "The role must be staff or manager.", details: ["field": "role"])
        }
    }
}

/// Authentication and authorisation failures.
enum AccessError: Error, APIErrorConvertible {
    case unauthenticated
    case forbidden

    var apiError: APIError {
        switch self {
        case .unauthenticated:
            APIError(.unauthorized, "unauthorized", "Sign in first: send 'Authorization: Bearer <token>'.",
                headers: [.wwwAuthenticate: "Bearer"])
        case .forbidden:
            APIError(.forbidden, "forbidden", "You are not allowed to do that.")
        }
    }
}
