import Crypto
import Foundation

/// Standard Webhooks 1.0 signing (https://www.standardwebhooks.com): what a partner's
/// `standardwebhooks` library verifies.
///
/// The secret is `whsec_` + base64 of 32 random bytes; the HMAC key is those decoded bytes, not
/// the text. The signature is `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}`, where
/// `id` is the `webhook-id` header (the event's id, the same on every attempt, so a partner can
/// drop duplicates) and `timestamp` the `webhook-timestamp` header (Unix seconds of this attempt,
/// which receivers check against their clock to refuse replays).
package enum WebhookSigning {
    package static let secretPrefix = "whsec_"

    /// A new endpoint secret: `whsec_` + base64 of 32 bytes from the system's secure generator.
    package static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return secretPrefix + Data(bytes).base64EncodedString()
    }

    /// The HMAC key of a secret (its base64 part decoded), or nil when it is not one of ours.
    package static func key(of secret: String) -> SymmetricKey? {
        guard secret.hasPrefix(secretPrefix), let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))),
            !bytes.isEmpty
        else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header value for one attempt; nil when `secret` is malformed.
    package static func signature(secret: String, id: String, timestamp: Int64, body: some Sequence<UInt8>) -> String? {
        guard let key = key(of: secret) else { return nil }
        let signed = Array("\(id).\(timestamp).".utf8) + Array(body)
        return "v1," + Data(HMAC<SHA256>.authenticationCode(for: signed, using: key)).base64EncodedString()
    }
}
