import Foundation

/// Why a pickup token was refused. Each case says exactly what was wrong.
///
/// The checks run in this order, so the first failure wins: text form and Base45
/// (``malformed(_:)``), format version (``unsupportedVersion(_:)``), length
/// (``malformed(_:)``), key id (``unknownKeyID(_:)``), signature (``badSignature``),
/// expiry (``expired(at:)``). Expiry is judged only on a genuine signature.
/// A wrong store is not an error here: compare ``PickupToken/Claims/storeNumber`` yourself.
public enum PickupTokenError: Error, Sendable, Hashable {
    /// The text or bytes are not a pickup token at all.
    case malformed(Malformed)
    /// The token says it was signed by a key this verifier does not trust
    /// (never existed, or was removed from the keyring).
    case unknownKeyID(PickupKeyID)
    /// The signature does not match the claims for the named key: forged or altered.
    case badSignature
    /// Genuine, but its expiry time has passed (`now >= expiry`).
    case expired(at: Date)
    /// A format version this code does not understand (this code reads version 1).
    case unsupportedVersion(UInt8)

    /// Which part of the structure was wrong, for logs; callers normally treat all alike.
    public enum Malformed: Sendable, Hashable {
        /// The text does not start with ``PickupToken/textPrefix``.
        case missingPrefix
        /// The text after the prefix is not valid Base45 (bad character, lower case, bad length).
        case invalidBase45(Base45.DecodingError)
        /// No bytes at all after the prefix.
        case empty
        /// The decoded bytes have the wrong length for their version (truncated or over-long).
        case wrongLength(Int)
    }

    /// A stable snake_case code for logs and JSON error bodies.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .unknownKeyID: "unknown_key_id"
        case .badSignature: "bad_signature"
        case .expired: "expired"
        case .unsupportedVersion: "unsupported_version"
        }
    }
}
