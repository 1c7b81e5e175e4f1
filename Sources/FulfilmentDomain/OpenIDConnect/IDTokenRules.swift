import Foundation

/// When an ID token is believed (OpenID Connect Core §3.1.3.7): signed with RS256 or ES256 by a
/// key the provider publishes, issued by the provider, to this service (or one of its apps),
/// not expired, not issued in the future, and for this sign-in when a nonce was sent.
///
/// Plain rules on values, so every forgery has a test without a network: the keys come from
/// `ProviderDirectory`, the time from the caller.
package struct IDTokenRules: Sendable {
    /// The provider's issuer exactly as configured (and as its discovery document states it).
    package var issuer: String
    /// The client ids the token may be issued to: the service's own first, then its apps'.
    package var audiences: [String]
    /// The nonce this sign-in sent; nil when the caller sent none (the token exchange's option).
    package var nonce: String?
    package var now: Date
    /// Clock difference tolerated between the provider and this service.
    package var leeway: TimeInterval = 60

    package static let algorithms: Set<String> = ["RS256", "ES256"]
    /// The longest an ID token may still be valid for: providers issue them for minutes to an hour
    /// (Google and Apple: an hour; Microsoft: an hour to a day). An `exp` of 1e300 is a forgery's
    /// bid to be replayed for ever (issue 41).
    package static let longestLifetime: TimeInterval = 24 * 3600

    /// Google's tokens may name their issuer without the scheme (its documentation says both occur).
    package var acceptedIssuers: Set<String> {
        issuer == "https://accounts.google.com" ? [issuer, "accounts.google.com"] : [issuer]
    }

    /// Whether `token` is signed by one of `keys`: `unknownKey` when none has its `kid` (the
    /// caller may fetch the keys again and retry), other failures final.
    package func checkSignature(_ token: IDToken, keys: JSONWebKeySet) throws(ProviderSignInError) {
        guard Self.algorithms.contains(token.header.alg) else { throw .unsupportedAlgorithm(token.header.alg) }
        guard let key = keys.key(id: token.header.kid, algorithm: token.header.alg) else { throw .unknownKey }
        guard key.verifies(token.signature, for: token.signingInput) else { throw .badSignature }
    }

    /// The claims' rules, once the signature verified.
    package func checkClaims(_ token: IDToken) throws(ProviderSignInError) -> ProviderIdentity {
        let claims = token.claims
        guard let iss = claims.iss, acceptedIssuers.contains(iss) else { throw .wrongIssuer }
        guard let sub = claims.sub, (1...255).contains(sub.count) else { throw .missingClaim("sub") }
        guard claims.aud.contains(where: audiences.contains) else { throw .wrongAudience }
        // Several audiences: the party it was issued to (azp) must be named, and be one of ours
        // (OpenID Connect Core §3.1.3.7, 4 and 5); without it anyone in the list could have asked.
        if claims.aud.count > 1 {
            guard let azp = claims.azp, audiences.contains(azp) else { throw .wrongAudience }
        }
        guard let exp = claims.exp, exp.isFinite else { throw .missingClaim("exp") }
        guard let iat = claims.iat, iat.isFinite else { throw .missingClaim("iat") }
        let now = now.timeIntervalSince1970
        guard exp + leeway > now else { throw .expired }
        guard exp - now <= Self.longestLifetime + leeway else { throw .implausibleExpiry }
        guard iat - leeway <= now else { throw .notYetValid }
        if let nonce { guard claims.nonce == nonce else { throw .wrongNonce } }
        let email = claims.email.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        return ProviderIdentity(
            subject: sub, email: email, emailVerified: email != nil && claims.emailVerified, name: claims.name,
            expiresAt: Date(timeIntervalSince1970: exp))
    }
}
