import Foundation

/// How sign-in with identity providers is set up for this service (issue 33).
public struct ProviderSignInSettings: Sendable {
    /// The issuer of the chain's workforce provider (`FULFILMENT_WORKFORCE_ISSUER`). When set,
    /// staff and managers sign in through it only: their password sign-in and other providers
    /// are refused (`workforce_sign_in_required`), and it creates no accounts. The chain's
    /// admins keep their password, so a provider outage cannot lock out the people who fix it.
    public var workforceIssuer: String?
    /// The address browsers reach this service at (`FULFILMENT_PUBLIC_URL`, such as
    /// `https://shop.example.com`): the redirect URI registered at each provider is
    /// `{it}/signin/callback`. Unset, it is taken from the request's Host.
    public var publicURL: String?
    /// Providers from the environment (`FULFILMENT_IDENTITY_PROVIDERS`, a JSON list), saved at
    /// start beside those `fulfilment idp add` saved.
    public var providers: [IdentityProvider]
    /// The least time between two fetches of a provider's keys for an unknown key id.
    public var keysMinimumAge: Duration = .seconds(30)

    public init(workforceIssuer: String? = nil, publicURL: String? = nil, providers: [IdentityProvider] = []) {
        self.workforceIssuer = workforceIssuer
        self.publicURL = publicURL
        self.providers = providers
    }

    private struct ProviderEntry: Decodable {
        package var issuer: String
        package var name: String
        package var clientId: String
        package var clientSecretFile: String?
        package var audiences: [String]?
    }

    /// The settings the environment gives; a list that cannot be read stops the service with why.
    public static func from(environment: [String: String]) throws -> ProviderSignInSettings {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var providers: [IdentityProvider] = []
        if let json = value("FULFILMENT_IDENTITY_PROVIDERS") {
            let entries: [ProviderEntry]
            do {
                entries = try JSONDecoder().decode([ProviderEntry].self, from: Data(json.utf8))
            } catch {
                throw ConfigurationError(
                    "FULFILMENT_IDENTITY_PROVIDERS must be a JSON list of {\"issuer\", \"name\", \"clientId\", \"clientSecretFile\"?, \"audiences\"?}: \(error)"
                )
            }
            providers = try entries.map { entry in
                do {
                    return IdentityProvider(
                        issuer: try IdentityProvider.checkedIssuer(entry.issuer), name: entry.name, clientID: entry.clientId,
                        clientSecretFile: entry.clientSecretFile, audiences: entry.audiences ?? [])
                } catch let error as IdentityProviderConfigurationError {
                    throw ConfigurationError("FULFILMENT_IDENTITY_PROVIDERS: \(error.description)")
                }
            }
        }
        let workforce = try value("FULFILMENT_WORKFORCE_ISSUER").map { issuer in
            do { return try IdentityProvider.checkedIssuer(issuer) } catch let error as IdentityProviderConfigurationError {
                throw ConfigurationError("FULFILMENT_WORKFORCE_ISSUER: \(error.description)")
            }
        }
        let publicURL = value("FULFILMENT_PUBLIC_URL").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if let publicURL, URL(string: publicURL)?.host == nil || !(publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://")) {
            throw ConfigurationError("FULFILMENT_PUBLIC_URL: \(publicURL) is not an http(s) address")
        }
        return ProviderSignInSettings(workforceIssuer: workforce, publicURL: publicURL, providers: providers)
    }
}
