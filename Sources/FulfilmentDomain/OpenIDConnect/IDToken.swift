import Foundation

/// An ID token as it arrived: a compact JWS (RFC 7515) split and parsed, not yet trusted.
/// `IDTokenRules` decides whether to believe it.
package struct IDToken: Sendable {
    package struct Header: Sendable, Decodable {
        package var alg: String
        package var kid: String?
    }

    package let header: Header
    package let claims: IDTokenClaims
    /// `base64url(header) "." base64url(claims)`: the bytes the signature covers.
    package let signingInput: Data
    package let signature: Data

    /// No provider's ID token comes near this; a larger one is refused before any parsing.
    package static let maximumLength = 16_384

    package init(compact: String) throws(ProviderSignInError) {
        let text = compact.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count <= Self.maximumLength else { throw .malformedToken }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Data(base64URL: parts[0]), let claimBytes = Data(base64URL: parts[1]),
            let signature = Data(base64URL: parts[2])
        else { throw .malformedToken }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerBytes) else { throw .malformedToken }
        guard let claims = try? JSONDecoder().decode(IDTokenClaims.self, from: claimBytes) else { throw .malformedToken }
        self.header = header
        self.claims = claims
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }
}

/// The claims of an ID token this service reads (OpenID Connect Core §2 and §5.1), each as
/// loosely typed as providers send them: `aud` is a string or a list, Apple sends
/// `email_verified` as the string "true", times may carry fractions.
package struct IDTokenClaims: Sendable, Decodable {
    package var iss: String?
    package var sub: String?
    package var aud: [String]
    package var azp: String?
    package var exp: Double?
    package var iat: Double?
    package var nonce: String?
    package var email: String?
    package var emailVerified: Bool
    package var name: String?

    package enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, iat, nonce, email, name
        case emailVerified = "email_verified"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try? c.decode(String.self, forKey: .iss)
        sub = try? c.decode(String.self, forKey: .sub)
        if let one = try? c.decode(String.self, forKey: .aud) {
            aud = [one]
        } else {
            aud = (try? c.decode([String].self, forKey: .aud)) ?? []
        }
        azp = try? c.decode(String.self, forKey: .azp)
        exp = try? c.decode(Double.self, forKey: .exp)
        iat = try? c.decode(Double.self, forKey: .iat)
        nonce = try? c.decode(String.self, forKey: .nonce)
        email = try? c.decode(String.self, forKey: .email)
        if let flag = try? c.decode(Bool.self, forKey: .emailVerified) {
            emailVerified = flag
        } else {
            emailVerified = (try? c.decode(String.self, forKey: .emailVerified)) == "true"
        }
        name = try? c.decode(String.self, forKey: .name)
    }
}

/// What a verified ID token says about the person: who they are at the provider, and the email
/// it vouches for (only when `emailVerified`).
package struct ProviderIdentity: Sendable, Equatable {
    package var subject: String
    package var email: String?
    package var emailVerified: Bool
    package var name: String?
    /// When the token stops being believed (its `exp`): how long its exchange is remembered.
    package var expiresAt: Date? = nil
}

extension Data {
    /// base64url without padding (RFC 4648 §5), as JWTs use it; nil for anything else.
    package init?(base64URL text: some StringProtocol) {
        guard
            text.utf8.allSatisfy({
                $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard base64.count % 4 != 1 else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
