import Foundation

/// An OpenID Connect provider an admin configured (`fulfilment idp add`, or
/// `FULFILMENT_IDENTITY_PROVIDERS`). Its endpoints and keys are not stored: they come from its
/// discovery document (`ProviderDirectory`).
public struct IdentityProvider: Sendable, Equatable {
    public var id: UUID
    public var issuer: String
    /// What the sign-in button says: "Sign in with \(name)".
    public var name: String
    /// The service's client id at the provider: the audience of its web sign-ins' tokens.
    public var clientID: String
    /// The file every instance reads the client secret from when it redeems a code; nil for a
    /// public client (PKCE alone), and for providers used by apps' token exchange only.
    public var clientSecretFile: String?
    /// The apps' own client ids, also accepted as an ID token's audience by the token exchange.
    public var audiences: [String]

    public init(id: UUID = UUID(), issuer: String, name: String, clientID: String, clientSecretFile: String?, audiences: [String] = []) {
        self.id = id
        self.issuer = issuer
        self.name = name
        self.clientID = clientID
        self.clientSecretFile = clientSecretFile
        self.audiences = audiences
    }

    /// Where a browser starts signing in with it (`Console+ProviderSignIn`).
    package var signInPath: String { "/signin/provider/\(id.uuidString.lowercased())" }

    /// Every audience a token may carry: the web client's first.
    package var acceptedAudiences: [String] { [clientID] + audiences }

    /// The issuer's rules: https, or http on this machine only (a provider under test); no
    /// query or fragment (OpenID Connect Discovery §2). Answers the issuer without a trailing slash.
    public static func checkedIssuer(_ text: String) throws -> String {
        let issuer = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: issuer), let host = url.host, url.query == nil, url.fragment == nil, issuer.count <= 500 else {
            throw IdentityProviderConfigurationError("\(text) is not an issuer URL (https://host[/path], no query)")
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard url.scheme == "https" || (url.scheme == "http" && loopback) else {
            throw IdentityProviderConfigurationError("\(text): an issuer must be https (http only on this machine, for a provider under test)")
        }
        return issuer
    }

    /// The client secret, read from its file now (so replacing the file rotates it); nil for a public client.
    package func clientSecret() throws(ProviderSignInError) -> String? {
        guard let clientSecretFile else { return nil }
        guard let data = FileManager.default.contents(atPath: clientSecretFile),
            let secret = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !secret.isEmpty
        else { throw .providerUnavailable("its client secret file cannot be read") }
        return secret
    }
}

/// A provider's configuration that cannot be used, in words for the admin.
public struct IdentityProviderConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A provider linked to an account, as `GET /v1/me` lists it.
package struct LinkedIdentity: Sendable, Equatable {
    package var providerID: UUID
    package var issuer: String
    package var name: String
    package var email: String?
    package var linkedAt: Date
    package var lastSignedInAt: Date?
}
