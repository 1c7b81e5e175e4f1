import Crypto
import Foundation

/// The token in a link a message carries (a password reset, an email confirmation, an
/// unsubscribe): `<key id>.<row id, hex>.<HMAC-SHA256 of the purpose and id under that data key>`.
///
/// Made from the row's id rather than drawn at random, so the sender can write the link again
/// when it renders the message (a retry, the Mail page) while the database keeps only the
/// token's SHA-256: a dump alone holds no working link, and guessing one means forging an HMAC
/// under a key the database never sees.
package enum LinkToken {
    package enum Purpose: String, Sendable {
        case passwordReset = "password-reset"
        case emailChange = "email-change"
        case unsubscribe
    }

    /// The longest a token can be (the contract's bound): a key id, 32 hex digits, 43 of base64url.
    package static let maximumLength = 200

    package static func make(_ purpose: Purpose, id: UUID, key: DataKey) -> String {
        let hex = id.uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(purpose.rawValue) \(hex)".utf8), using: key.key)
        return "\(key.id).\(hex).\(Data(mac).base64URLEncoded)"
    }

    /// The SHA-256 the database keeps of a token, to find it by.
    package static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Data(token.utf8))) }

    /// The row id a token names, when it is well formed and its HMAC holds under a key of
    /// `keys` (the unsubscribe link has no row of its own, so this is its whole check).
    package static func verify(_ token: String, purpose: Purpose, keys: DataKeyStore) -> UUID? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= maximumLength, parts.count == 3, let keyID = Int(parts[0]), let key = keys.key(keyID),
            parts[1].count == 32, let id = uuid(hex: String(parts[1]))
        else { return nil }
        return ConstantTime.equal(make(purpose, id: id, key: key), token) ? id : nil
    }

    private static func uuid(hex: String) -> UUID? {
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        let h = Array(hex)
        let text = "\(String(h[0..<8]))-\(String(h[8..<12]))-\(String(h[12..<16]))-\(String(h[16..<20]))-\(String(h[20..<32]))"
        return UUID(uuidString: text)
    }
}
