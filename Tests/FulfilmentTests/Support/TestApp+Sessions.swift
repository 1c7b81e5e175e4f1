import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

extension TestApp {
    /// Signs in through the test client; the reply is returned as it is.
    func login(_ email: String, _ password: String) async throws -> TestReply {
        try await request(.post, "/v1/auth/login", json: ["email": .string(email), "password": .string(password)])
    }

    /// Signs in and returns the new token, failing the test when sign-in does not succeed.
    func token(_ email: String, _ password: String) async throws -> String {
        let reply = try await login(email, password)
        guard reply.status == .ok, let token = reply.json["token"].string else {
            throw TestSetupError("sign-in failed: \(reply.status) \(reply.text)")
        }
        return token
    }

    /// The email of a signed-in session's user (`signIn` makes one up).
    func email(of session: Session) async throws -> String {
        guard let email = try await request(.get, "/v1/me", token: session.token).json["email"].string else {
            throw TestSetupError("no email for \(session.userID)")
        }
        return email
    }

    /// Whether a token still gets past authentication.
    func works(_ token: String) async throws -> Bool {
        try await request(.get, "/v1/me", token: token).status == .ok
    }
}

extension SeparateConnections.Request {
    /// A sign-in from `address`, over a connection of its own.
    static func login(_ email: String, _ password: String, from address: String = "127.0.0.1") -> Self {
        Self(path: "/v1/auth/login", json: ["email": .string(email), "password": .string(password)], from: address)
    }
}
