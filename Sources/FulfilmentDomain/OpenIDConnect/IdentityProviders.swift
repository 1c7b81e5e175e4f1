import Foundation
import Logging

/// The chain's admin keeps the identity providers (`fulfilment idp`): no route changes them,
/// as no route makes an admin.
public struct IdentityProviders: Sendable {
    package let database: Database

    public init(database: Database) { self.database = database }

    /// Saves `provider` (replacing the one with its issuer, whose links stay) once its discovery
    /// document answers for that issuer and its secret file, if any, can be read here.
    public func save(_ provider: IdentityProvider, logger: Logger) async throws -> IdentityProvider {
        do {
            _ = try await ProviderDirectory().discovery(for: provider.issuer, logger: logger)
            _ = try provider.clientSecret()
        } catch {
            throw IdentityProviderConfigurationError("\(provider.issuer): \(error.apiError.message)")
        }
        return try await IdentityProviderQueries.save(provider, on: database.client, logger: logger)
    }

    public func all(logger: Logger) async throws -> [IdentityProvider] {
        try await IdentityProviderQueries.all(on: database.client, logger: logger)
    }

    /// Removes the provider and every link to it; how many accounts were linked, or nil when there was no such provider.
    public func remove(issuer: String, logger: Logger) async throws -> Int? {
        try await IdentityProviderQueries.remove(issuer: try IdentityProvider.checkedIssuer(issuer), on: database.client, logger: logger)
    }
}
