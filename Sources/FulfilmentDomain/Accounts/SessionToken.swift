import Crypto
import Foundation

/// A session's bearer token: 256 random bits, sent base64url-encoded. The database keeps
/// only its SHA-256, so a copy of the database cannot be used to sign in.
package struct SessionToken: Sendable {
    package let text: String

    package static func generate() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SessionToken(text: Data(bytes).base64URLEncoded)
    }

    /// The hash of any presented text; a malformed token simply matches no session.
    package static func hash(_ text: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(text.utf8)))
    }

    package var hash: [UInt8] { Self.hash(text) }
}

extension Data {
    package var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
