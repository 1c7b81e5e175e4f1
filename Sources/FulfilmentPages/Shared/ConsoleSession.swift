import Crypto
import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import Logging

/// A browser's sign-in: the same session (the `sessions` table, the same token) that the API
/// takes as a bearer token, carried in a cookie instead. The cookie is HttpOnly (page scripts
/// cannot read it), SameSite=Strict (other sites' pages do not send it) and Secure when the
/// service is configured as reached over TLS. Signing out ends the session row, so the same
/// token stops working in every tab and for the API at once.
struct ConsoleSession: Sendable {
    static let cookieName = "fulfilment_session"
    /// The hidden field every state-changing form carries.
    static let csrfField = "_csrf"

    let identity: Identity
    let token: String

    /// The anti-forgery token of this session: an HMAC of a fixed label keyed with the session
    /// token. Another site can neither read the cookie nor compute this, and nothing needs storing.
    var csrfToken: String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("console-csrf-v1".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return Data(mac).base64URLEncoded
    }

    /// The signed-in caller of this request, or nil (no cookie, or a session that has ended,
    /// expired or belongs to a disabled account): the same lookup, lifetimes included, as the API's.
    static func resolve(
        _ request: Request, sessions: Sessions, logger: Logger
    ) async throws -> ConsoleSession? {
        guard let token = request.cookies[cookieName]?.value, !token.isEmpty, token.count <= 128 else { return nil }
        guard case .live(let identity) = try await sessions.lookUp(tokenHash: SessionToken.hash(token), logger: logger) else { return nil }
        return ConsoleSession(identity: identity, token: token)
    }

    /// Whether a submitted form carries this session's token (compared in constant time).
    func accepts(_ form: ConsoleForm) -> Bool {
        guard let sent = form[Self.csrfField] else { return false }
        return ConstantTime.equal(sent, csrfToken)
    }

    static func cookie(token: String, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: token, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    static func clearingCookie(secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", secure: secure,
            httpOnly: true, sameSite: .strict)
    }
}
