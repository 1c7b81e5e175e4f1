import Crypto
import Foundation

/// Checks pickup tokens against every trusted public key, by key id.
///
/// Holds public keys only, so it can be given to offline scanners. Several keys are trusted
/// at once so tokens signed before a key rotation stay valid until they expire.
public struct PickupTokenVerifier: Sendable {
    /// The trusted public keys, by id.
    public let trustedKeys: [PickupKeyID: Curve25519.Signing.PublicKey]

    /// Creates a verifier trusting exactly these keys.
    public init(trustedKeys: [PickupKeyID: Curve25519.Signing.PublicKey]) {
        self.trustedKeys = trustedKeys
    }

    /// Verifies the text form read from a QR code and returns the token, whose claims can now be trusted.
    ///
    /// The caller still checks that ``PickupToken/Claims/storeNumber`` is its own store.
    /// - Parameter now: the time to judge expiry against; the token is expired from its expiry second on.
    /// - Throws: ``PickupTokenError`` naming the first check that failed; never crashes on any input.
    public func verify(_ text: some StringProtocol, now: Date = Date()) throws(PickupTokenError) -> PickupToken {
        try verify(bytes: PickupToken.decodeText(text), now: now)
    }

    /// Verifies the binary form; same checks as ``verify(_:now:)`` after the text decoding.
    public func verify(bytes: some Collection<UInt8>, now: Date = Date()) throws(PickupTokenError) -> PickupToken {
        let raw = Array(bytes)
        let token = try PickupToken(bytes: raw)
        guard let key = trustedKeys[token.keyID] else { throw .unknownKeyID(token.keyID) }
        // Verify exactly the bytes received, not a re-encoding of what was parsed from them.
        let message = PickupToken.signingMessage(signedBytes: raw[..<PickupToken.signedLength(version: token.version)])
        guard key.isValidSignature(token.signature, for: message) else { throw .badSignature }
        guard !token.claims.isExpired(at: now) else { throw .expired(at: token.claims.expiresAt) }
        return token
    }
}
