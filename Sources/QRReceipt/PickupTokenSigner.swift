import Crypto
import Foundation

/// Signs pickup tokens with the one current Ed25519 private key.
///
/// Usually obtained from ``PickupKeyring/signer``. Cheap to copy and safe to share across tasks.
public struct PickupTokenSigner: Sendable {
    /// The id written into every token this signer makes.
    public let keyID: PickupKeyID
    private let privateKey: Curve25519.Signing.PrivateKey

    /// Creates a signer for `privateKey`, known to verifiers as `keyID`.
    public init(keyID: PickupKeyID, privateKey: Curve25519.Signing.PrivateKey) {
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// The public half, for verifiers.
    public var publicKey: Curve25519.Signing.PublicKey { privateKey.publicKey }

    /// Signs `claims` into a token; put ``PickupToken/text`` in the QR code.
    ///
    /// - Throws: only if the crypto library fails to sign (not expected in practice).
    public func sign(_ claims: PickupToken.Claims) throws -> PickupToken {
        let signed = PickupToken.signedBytes(keyID: keyID, claims: claims)
        let signature = try privateKey.signature(for: PickupToken.signingMessage(signedBytes: signed))
        return PickupToken(keyID: keyID, claims: claims, signature: Array(signature))
    }
}
