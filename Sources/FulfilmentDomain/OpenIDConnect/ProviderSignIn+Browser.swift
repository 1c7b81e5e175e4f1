import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore

/// The authorization code flow with PKCE (RFC 7636) for the web shop and the console: the
/// browser is sent to the provider with a one-time `state` (also in a cookie, so the answer is
/// taken only in the browser that asked), a `nonce` the ID token must carry, and a code
/// challenge whose verifier only this service knows; the code it brings back is redeemed from
/// here, server to server.
extension ProviderSignIn {
    package static let stateCookie = "fulfilment_provider_sign_in"

    /// Where to send the browser, and the state to set in its cookie.
    package func startBrowserSignIn(provider id: UUID, redirectURI: String, returnTo: String, logger: Logger) async throws -> (
        url: String, state: String
    ) {
        guard let provider = try await IdentityProviderQueries.provider(id: id, on: database.client, logger: logger) else {
            throw ProviderSignInError.unknownProvider
        }
        let discovery = try await directory.discovery(for: provider.issuer, logger: logger)
        let signIn = BrowserSignIn(
            state: SessionToken.generate().text, providerID: provider.id, nonce: SessionToken.generate().text,
            codeVerifier: SessionToken.generate().text, redirectURI: redirectURI, returnTo: returnTo)
        try await BrowserSignInQueries.start(signIn, on: database.client, logger: logger)
        guard var url = URLComponents(string: discovery.authorizationEndpoint) else {
            throw ProviderSignInError.providerUnavailable("its authorization endpoint is not an address")
        }
        url.queryItems =
            (url.queryItems ?? []) + [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: provider.clientID),
                URLQueryItem(name: "redirect_uri", value: redirectURI),
                URLQueryItem(name: "scope", value: "openid email profile"),
                URLQueryItem(name: "state", value: signIn.state),
                URLQueryItem(name: "nonce", value: signIn.nonce),
                URLQueryItem(name: "code_challenge", value: Data(SHA256.hash(data: Data(signIn.codeVerifier.utf8))).base64URLEncoded),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        guard let address = url.string else { throw ProviderSignInError.providerUnavailable("its authorization endpoint is not an address") }
        return (address, signIn.state)
    }

    package enum BrowserOutcome: Sendable {
        case signedIn(Accounts.SignedIn, returnTo: String)
        /// The provider vouched for an email whose account has a password: ask for it (`linkWithPassword`).
        case needsPassword(email: String, providerName: String)
    }

    /// The browser is back from the provider: checks the state against its cookie, redeems the
    /// code, verifies the ID token (its nonce this sign-in's) and signs its person in.
    package func finishBrowserSignIn(
        state: String?, cookie: String?, code: String?, error: String?, logger: Logger
    ) async throws -> BrowserOutcome {
        guard let state, (32...100).contains(state.count) else { throw ProviderSignInError.unknownState }
        guard let cookie, ConstantTime.equal(cookie, state) else { throw ProviderSignInError.stateMismatch }
        guard
            let signIn = try await database.transaction(
                logger: logger,
                { connection in
                    try await BrowserSignInQueries.take(state: state, awaitingPassword: false, on: connection, logger: logger)
                })
        else { throw ProviderSignInError.unknownState }
        if let error {
            // The provider's own code (`access_denied`...), kept to its characters and length.
            throw ProviderSignInError.providerRefused(String(error.filter { $0.isLetter || $0 == "_" }.prefix(64)))
        }
        guard let code, !code.isEmpty, code.utf8.count <= 2048 else { throw ProviderSignInError.codeRefused }
        guard let provider = try await IdentityProviderQueries.provider(id: signIn.providerID, on: database.client, logger: logger) else {
            throw ProviderSignInError.unknownProvider
        }
        let idToken = try await redeem(code: code, for: signIn, with: provider, logger: logger)
        let identity = try await verify(idToken, from: provider, audiences: [provider.clientID], nonce: signIn.nonce, logger: logger)
        do {
            return .signedIn(try await self.signIn(identity, with: provider, password: nil, logger: logger), returnTo: signIn.returnTo)
        } catch ProviderSignInError.passwordRequired(let email, let user) {
            try await BrowserSignInQueries.awaitPassword(
                signIn, subject: identity.subject, email: email, user: user, on: database.client, logger: logger)
            return .needsPassword(email: email, providerName: provider.name)
        }
    }

    /// The sign-in waiting for the password of the account with the provider's email, for the page
    /// that asks. `state` is the browser's cookie: only the browser that came back holds it.
    package func waitingForPassword(state: String?, logger: Logger) async throws -> (email: String, providerName: String) {
        let (signIn, provider) = try await waiting(state: state, logger: logger)
        return (signIn.email ?? "", provider.name)
    }

    /// The password of the account the provider's email matched: right, the provider is linked
    /// and the person signed in; wrong, the sign-in waits for another try (throttled as sign-in is).
    package func linkWithPassword(state: String?, password: String, logger: Logger) async throws -> BrowserOutcome {
        let (signIn, provider) = try await waiting(state: state, logger: logger)
        guard let subject = signIn.subject, let email = signIn.email else { throw ProviderSignInError.unknownState }
        let identity = ProviderIdentity(subject: subject, email: email, emailVerified: true, name: nil)
        let signedIn = try await self.signIn(identity, with: provider, password: password, logger: logger)
        _ = try await database.transaction(logger: logger) { connection in
            try await BrowserSignInQueries.take(state: signIn.state, awaitingPassword: true, on: connection, logger: logger)
        }
        return .signedIn(signedIn, returnTo: signIn.returnTo)
    }

    private func waiting(state: String?, logger: Logger) async throws -> (BrowserSignIn, IdentityProvider) {
        guard let state, (32...100).contains(state.count) else { throw ProviderSignInError.unknownState }
        guard let signIn = try await BrowserSignInQueries.waiting(state: state, on: database.client, logger: logger),
            let provider = try await IdentityProviderQueries.provider(id: signIn.providerID, on: database.client, logger: logger)
        else { throw ProviderSignInError.unknownState }
        return (signIn, provider)
    }

    /// Redeems the authorization code at the provider's token endpoint with the PKCE verifier and,
    /// for a confidential client, its secret (HTTP Basic unless the provider takes it only in the form).
    private func redeem(code: String, for signIn: BrowserSignIn, with provider: IdentityProvider, logger: Logger) async throws -> String {
        let discovery = try await directory.discovery(for: provider.issuer, logger: logger)
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", signIn.redirectURI),
            ("code_verifier", signIn.codeVerifier), ("client_id", provider.clientID),
        ]
        var request = HTTPClientRequest(url: discovery.tokenEndpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if let secret = try provider.clientSecret() {
            let methods = discovery.tokenEndpointAuthMethodsSupported ?? ["client_secret_basic"]
            if methods.contains("client_secret_basic") || !methods.contains("client_secret_post") {
                let credentials = "\(Self.formEncoded(provider.clientID)):\(Self.formEncoded(secret))"
                request.headers.add(name: "Authorization", value: "Basic \(Data(credentials.utf8).base64EncodedString())")
            } else {
                form.append(("client_secret", secret))
            }
        }
        request.body = .bytes(ByteBuffer(string: form.map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&")))
        let (status, body) = try await ProviderDirectory.send(request, what: "token endpoint", logger: logger)
        struct TokenResponse: Decodable {
            package var idToken: String?
            package enum CodingKeys: String, CodingKey { case idToken = "id_token" }
        }
        guard status == 200, let idToken = try? JSONDecoder().decode(TokenResponse.self, from: body).idToken else {
            logger.notice("identity provider refused a code", metadata: ["issuer": "\(provider.issuer)", "status": "\(status)"])
            throw ProviderSignInError.codeRefused
        }
        return idToken
    }

    /// `application/x-www-form-urlencoded` for one value (also what HTTP Basic of a client id
    /// and secret takes, RFC 6749 §2.3.1).
    package static func formEncoded(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
