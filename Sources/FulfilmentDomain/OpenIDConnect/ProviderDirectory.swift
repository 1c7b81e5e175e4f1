import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat

/// What this instance knows of each provider: its discovery document and its signing keys, each
/// kept for an hour at most; the keys are fetched again sooner when a token names a key not seen
/// yet (a rotation), at most once per `keysMinimumAge`, so a flood of made-up key ids cannot make
/// this service hammer the provider.
///
/// A cache, not state: every instance keeps its own, and losing it costs one fetch.
package actor ProviderDirectory {
    package struct Discovery: Sendable, Decodable {
        package var issuer: String
        package var authorizationEndpoint: String
        package var tokenEndpoint: String
        package var jwksURI: String
        package var tokenEndpointAuthMethodsSupported: [String]?

        package enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        }
    }

    private struct Fetched<Value: Sendable>: Sendable {
        package var value: Value
        package var at: ContinuousClock.Instant
    }

    private var discoveries: [String: Fetched<Discovery>] = [:]
    private var keySets: [String: Fetched<JSONWebKeySet>] = [:]
    package let keysMinimumAge: Duration
    package let discoveryMaximumAge: Duration = .seconds(3600)
    /// The longest a provider may take to answer, and the most it may send.
    package static let timeout: TimeAmount = .seconds(10)
    package static let maximumBody = 1 << 20

    package init(keysMinimumAge: Duration = .seconds(30)) {
        self.keysMinimumAge = keysMinimumAge
    }

    /// The provider's discovery document; its `issuer` must be the one configured (Discovery §4.3).
    package func discovery(for issuer: String, logger: Logger) async throws(ProviderSignInError) -> Discovery {
        if let known = discoveries[issuer], known.at.duration(to: .now) < discoveryMaximumAge { return known.value }
        let body = try await Self.get("\(issuer)/.well-known/openid-configuration", what: "discovery", logger: logger)
        guard let document = try? JSONDecoder().decode(Discovery.self, from: body) else {
            throw .providerUnavailable("its discovery document is not one")
        }
        guard document.issuer == issuer else { throw .providerUnavailable("its discovery document names another issuer") }
        discoveries[issuer] = Fetched(value: document, at: .now)
        return document
    }

    /// The provider's keys: the cached set, or a fresh one when `refresh` and the cached set is old enough.
    package func keys(for issuer: String, refresh: Bool, logger: Logger) async throws(ProviderSignInError) -> JSONWebKeySet {
        if let known = keySets[issuer] {
            let age = known.at.duration(to: .now)
            // Kept an hour at most, so a key the provider withdrew stops verifying within the hour.
            if age < discoveryMaximumAge && (!refresh || age < keysMinimumAge) { return known.value }
        }
        let uri = try await discovery(for: issuer, logger: logger).jwksURI
        let body = try await Self.get(uri, what: "keys", logger: logger)
        guard let keys = JSONWebKeySet(json: body) else { throw .providerUnavailable("its key set is not one") }
        keySets[issuer] = Fetched(value: keys, at: .now)
        logger.info("identity provider keys fetched", metadata: ["issuer": "\(issuer)", "keys": "\(keys.keys.count)"])
        return keys
    }

    /// Checks `token` against the provider's keys and `rules`: a key id not seen yet fetches the
    /// keys once more (the provider rotated them) before the token is refused.
    package func verify(_ token: IDToken, rules: IDTokenRules, logger: Logger) async throws(ProviderSignInError) -> ProviderIdentity {
        do {
            try rules.checkSignature(token, keys: try await keys(for: rules.issuer, refresh: false, logger: logger))
        } catch .unknownKey {
            try rules.checkSignature(token, keys: try await keys(for: rules.issuer, refresh: true, logger: logger))
        }
        return try rules.checkClaims(token)
    }

    package static func get(_ url: String, what: String, logger: Logger) async throws(ProviderSignInError) -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, body) = try await send(request, what: what, logger: logger)
        guard status == 200 else { throw .providerUnavailable("its \(what) answered \(status)") }
        return body
    }

    /// Sends `request` to the provider: its status and body (bounded); unreachable, too slow or a
    /// server error is `providerUnavailable`, and the caller judges any other answer.
    package static func send(_ request: HTTPClientRequest, what: String, logger: Logger) async throws(ProviderSignInError) -> (
        status: Int, body: Data
    ) {
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumBody)
            let status = Int(response.status.code)
            guard status < 500 else { throw ProviderSignInError.providerUnavailable("its \(what) answered \(status)") }
            return (status, Data(buffer: body))
        } catch let error as ProviderSignInError {
            throw error
        } catch {
            logger.warning("identity provider unreachable", metadata: ["url": "\(request.url)", "error": "\(error)"])
            throw .providerUnavailable("its \(what) did not answer")
        }
    }
}
