import Crypto
import Foundation
import HTTPTypes

/// The signature on the payment provider's (inbound) webhook: `Webhook-Signature: v1=<hex>`
/// where `<hex>` is the lowercase hex HMAC-SHA256, keyed with the shared secret, of
/// `<Webhook-Timestamp> + "." + <raw request body>`; `Webhook-Timestamp` is Unix seconds and
/// must be within 5 minutes of now (either way), so a captured request cannot be replayed later.
/// (The webhooks this service sends are signed by `WebhookSigning`, to another scheme.)
package enum PaymentWebhookSignature {
    package static let timestampHeader = HTTPField.Name("Webhook-Timestamp")!
    package static let signatureHeader = HTTPField.Name("Webhook-Signature")!
    package static let tolerance: TimeInterval = 300
    package static let maximumBody = 64 * 1024

    package static func signature(secret: String, timestamp: String, body: some Sequence<UInt8>) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array(timestamp.utf8) + [UInt8(ascii: ".")] + Array(body), using: SymmetricKey(data: Data(secret.utf8)))
        return "v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Throws `stale_timestamp` or `invalid_signature`; compares in constant time.
    package static func verify(secret: String, timestamp: String?, signature: String?, body: [UInt8], now: Date = Date()) throws(OrderError) {
        guard let timestamp, let seconds = Int64(timestamp), abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            throw .staleTimestamp
        }
        guard let signature, signature.hasPrefix("v1="), let mac = hexBytes(signature.dropFirst(3)),
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Array(timestamp.utf8) + [UInt8(ascii: ".")] + body, using: SymmetricKey(data: Data(secret.utf8)))
        else { throw .invalidSignature }
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: chars[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
