import HTTPTypes

/// Everything that can stop a sign-in with an identity provider, and how each looks over HTTP.
///
/// Each names the step that failed (`details.step`: `provider`, `state`, `code_exchange`,
/// `id_token`, `account`), so a shop's support desk, or the person signing in, can tell a
/// provider that is down from a token that was refused from an account that needs its password.
/// Nobody is signed in after any of them.
package enum ProviderSignInError: Error, Equatable, APIErrorConvertible {
    /// The issuer is not one an admin configured.
    case unknownProvider
    /// The provider's discovery document, keys or token endpoint could not be read (`what` says which).
    case providerUnavailable(String)
    /// The browser came back with a `state` this service did not send, or sent over 10 minutes ago.
    case unknownState
    /// The browser came back with another browser's `state` (its cookie does not match).
    case stateMismatch
    /// The provider answered the browser with an error (`access_denied` when the user said no).
    case providerRefused(String)
    /// The provider's token endpoint refused the authorization code.
    case codeRefused
    /// Not a signed JWT (three base64url parts, JSON header and claims).
    case malformedToken
    /// `alg` is not RS256 or ES256 (`none` and the HMAC algorithms among them).
    case unsupportedAlgorithm(String)
    /// No key of the provider has the token's `kid`, even after fetching its keys again.
    case unknownKey
    case badSignature
    case wrongIssuer
    case wrongAudience
    case expired
    /// `iat` is in the future beyond the allowed clock skew.
    case notYetValid
    /// `exp` further ahead than any provider issues (`IDTokenRules.longestLifetime`).
    case implausibleExpiry
    /// This very token was exchanged for a session already: a token is exchanged once.
    case alreadyExchanged
    case wrongNonce
    /// A claim the rules need (`sub`, `exp`, `iat`) is missing or of the wrong type.
    case missingClaim(String)
    /// A new account or an automatic match needs an email the provider says it verified.
    case emailNotVerified
    /// An account with this email has a password: it is linked only once that password is given.
    /// `user` is that account (for the browser's sign-in to wait for its password; never shown).
    case passwordRequired(email: String, user: UserID)
    /// An account with this email signs in with other providers only: sign in with one of them
    /// and link this provider from the account.
    case accountExists
    /// This provider's subject is already linked to another account.
    case identityInUse
    /// The account already has another subject of this provider linked.
    case providerAlreadyLinked
    /// Unlinking: the account has no link to this provider.
    case notLinked
    /// Unlinking the only way the account can sign in.
    case lastSignInMethod
    /// Staff and managers sign in through the chain's workforce provider only (`FULFILMENT_WORKFORCE_ISSUER`).
    case workforceSignInRequired
    /// The workforce provider creates no accounts: a manager adds staff.
    case noWorkforceAccount
    case accountDisabled

    package var step: String {
        switch self {
        case .unknownProvider, .providerUnavailable: "provider"
        case .unknownState, .stateMismatch, .providerRefused: "state"
        case .codeRefused: "code_exchange"
        case .malformedToken, .unsupportedAlgorithm, .unknownKey, .badSignature, .wrongIssuer, .wrongAudience, .expired, .notYetValid,
            .wrongNonce, .missingClaim, .implausibleExpiry, .alreadyExchanged:
            "id_token"
        case .emailNotVerified, .passwordRequired, .accountExists, .identityInUse, .providerAlreadyLinked, .notLinked, .lastSignInMethod,
            .workforceSignInRequired, .noWorkforceAccount, .accountDisabled:
            "account"
        }
    }

    package var apiError: APIError {
        var error = plain
        error.details = (error.details ?? [:]).merging(["step": .string(step)]) { old, _ in old }
        return error
    }

    private var plain: APIError {
        switch self {
        case .unknownProvider:
            APIError(.unprocessableContent, "unknown_provider", "No identity provider with that issuer is configured.", details: ["field": "issuer"])
        case .providerUnavailable(let what):
            APIError(.badGateway, "provider_unavailable", "The identity provider could not be reached (\(what)); try again in a moment.")
        case .unknownState:
            APIError(.badRequest, "sign_in_expired", "This sign-in was not started here or took over 10 minutes; start again.")
        case .stateMismatch:
            APIError(.badRequest, "state_mismatch", "This sign-in was started in another browser; start again here.")
        case .providerRefused(let error):
            APIError(.unauthorized, "provider_refused", "The identity provider did not sign you in (\(error)).")
        case .codeRefused:
            APIError(.unauthorized, "code_refused", "The identity provider refused to complete the sign-in; start again.")
        case .malformedToken:
            APIError(.unauthorized, "invalid_id_token", "The ID token is not a signed JWT.")
        case .unsupportedAlgorithm(let alg):
            APIError(
                .unauthorized, "unsupported_algorithm",
                "ID tokens signed with \(alg.isEmpty ? "no algorithm" : alg) are not accepted (RS256 or ES256).")
        case .unknownKey:
            APIError(.unauthorized, "unknown_signing_key", "The ID token is signed with a key the provider does not publish.")
        case .badSignature:
            APIError(.unauthorized, "bad_signature", "The ID token's signature does not verify.")
        case .wrongIssuer:
            APIError(.unauthorized, "wrong_issuer", "The ID token was issued by another provider.")
        case .wrongAudience:
            APIError(.unauthorized, "wrong_audience", "The ID token was issued to another application.")
        case .expired:
            APIError(.unauthorized, "token_expired", "The ID token has expired; sign in with the provider again.")
        case .notYetValid:
            APIError(.unauthorized, "token_not_yet_valid", "The ID token was issued in the future; check the clock.")
        case .implausibleExpiry:
            APIError(.unauthorized, "token_lifetime_too_long", "The ID token claims to be valid for longer than any provider issues one.")
        case .alreadyExchanged:
            APIError(.unauthorized, "token_already_used", "This ID token has already been exchanged; sign in with the provider again.")
        case .wrongNonce:
            APIError(.unauthorized, "wrong_nonce", "The ID token was issued for another sign-in (its nonce differs).")
        case .missingClaim(let claim):
            APIError(.unauthorized, "invalid_id_token", "The ID token has no valid `\(claim)` claim.")
        case .emailNotVerified:
            APIError(
                .forbidden, "email_not_verified",
                "The identity provider has not verified this email address, so no account is created or matched for it.")
        case .passwordRequired(let email, _):
            APIError(
                .conflict, "password_required",
                "An account with \(email) already exists. Give its password once to link this provider to it.",
                details: ["email": .string(email), "field": "password"])
        case .accountExists:
            APIError(
                .conflict, "account_exists",
                "An account with this email already exists and signs in with another provider: sign in with it, then link this one from the account.")
        case .identityInUse:
            APIError(.conflict, "identity_in_use", "This provider account is already linked to another account.")
        case .providerAlreadyLinked:
            APIError(.conflict, "provider_already_linked", "Another account of this provider is already linked; unlink it first.")
        case .notLinked:
            APIError(.notFound, "not_found", "That provider is not linked to this account.")
        case .lastSignInMethod:
            APIError(
                .conflict, "last_sign_in_method", "This is the only way to sign in to this account; set a password or link another provider first.")
        case .workforceSignInRequired:
            APIError(.forbidden, "workforce_sign_in_required", "Staff and managers sign in with the chain's workforce sign-in.")
        case .noWorkforceAccount:
            APIError(.forbidden, "no_account", "No staff account has this email; ask a manager of your store to add you.")
        case .accountDisabled:
            APIError(.forbidden, "account_disabled", "This account has been disabled; ask a manager of your store.")
        }
    }
}
