import Crypto
import Foundation
import _CryptoExtras

/// A provider's published signing keys (its `jwks_uri`, RFC 7517), as keys that verify.
///
/// Only RSA (RS256) and P-256 (ES256) signature keys are taken; a key for encryption, of another
/// type, or an RSA key under 2048 bits is left out, so a token naming it is `unknownKey`.
package struct JSONWebKeySet: Sendable {
    package enum PublicKey: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)

        package var algorithm: String {
            switch self {
            case .rsa: "RS256"
            case .p256: "ES256"
            }
        }

        package func verifies(_ signature: Data, for input: Data) -> Bool {
            switch self {
            case .rsa(let key):
                key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
            case .p256(let key):
                (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map { key.isValidSignature($0, for: input) } ?? false
            }
        }
    }

    package struct Key: Sendable {
        package var id: String?
        package var key: PublicKey
    }

    package var keys: [Key]

    private struct Document: Decodable {
        package var keys: [JWK]
    }

    private struct JWK: Decodable {
        package var kty: String?
        package var kid: String?
        package var use: String?
        package var alg: String?
        package var n: String?
        package var e: String?
        package var crv: String?
        package var x: String?
        package var y: String?
    }

    package init(keys: [Key]) { self.keys = keys }

    /// Parses a JWKS document; nil when it is not one.
    package init?(json: Data) {
        guard let document = try? JSONDecoder().decode(Document.self, from: json) else { return nil }
        keys = document.keys.compactMap { jwk in
            guard jwk.use == nil || jwk.use == "sig" else { return nil }
            switch jwk.kty {
            case "RSA":
                guard jwk.alg == nil || jwk.alg == "RS256", let n = jwk.n.flatMap({ Data(base64URL: $0) }),
                    let e = jwk.e.flatMap({ Data(base64URL: $0) }), let key = try? _RSA.Signing.PublicKey(n: n, e: e)
                else { return nil }
                return Key(id: jwk.kid, key: .rsa(key))
            case "EC":
                guard jwk.crv == "P-256", jwk.alg == nil || jwk.alg == "ES256", let x = jwk.x.flatMap({ Data(base64URL: $0) }),
                    let y = jwk.y.flatMap({ Data(base64URL: $0) }), x.count == 32, y.count == 32,
                    let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
                else { return nil }
                return Key(id: jwk.kid, key: .p256(key))
            default:
                return nil
            }
        }
    }

    /// The key a token's header names: by `kid`, or the only key of its algorithm when the
    /// token names none (a provider with one key may leave `kid` out).
    package func key(id: String?, algorithm: String) -> PublicKey? {
        let candidates = keys.filter { $0.key.algorithm == algorithm }
        if let id { return candidates.first { $0.id == id }?.key }
        return candidates.count == 1 ? candidates[0].key : nil
    }
}
