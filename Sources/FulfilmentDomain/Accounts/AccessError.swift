import HTTPTypes

/// Authentication and authorisation failures.
package enum AccessError: Error, APIErrorConvertible {
    case unauthenticated
    /// The token was real but its session went idle too long or reached its maximum age.
    case sessionExpired
    case forbidden

    package var apiError: APIError {
        switch self {
        case .unauthenticated:
            APIError(
                .unauthorized, "unauthorized", "Sign in first: send 'Authorization: Bearer <token>'.",
                headers: [.wwwAuthenticate: "Bearer"])
        case .sessionExpired:
            APIError(
                .unauthorized, "session_expired", "Your session has expired; sign in again.",
                headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
        case .forbidden:
            APIError(.forbidden, "forbidden", "You are not allowed to do that.")
        }
    }
}
