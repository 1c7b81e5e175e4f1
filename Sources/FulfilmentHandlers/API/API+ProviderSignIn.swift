import Foundation
import FulfilmentDomain

/// Signing in with identity providers (issue 33): the providers' list, the apps' token
/// exchange, and the providers linked to one's own account.
extension API {
    func listIdentityProviders(_ input: Operations.ListIdentityProviders.Input) async throws -> Operations.ListIdentityProviders.Output {
        let providers = try await services.providerSignIn.providers(logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: providers.map {
                            .init(
                                id: $0.id.uuidString.lowercased(), issuer: $0.issuer, name: $0.name,
                                signInPath: $0.signInPath)
                        }, nextCursor: nil))))
    }

    func exchangeIdToken(_ input: Operations.ExchangeIdToken.Input) async throws -> Operations.ExchangeIdToken.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let signedIn = try await services.providerSignIn.exchange(
            issuer: body.issuer, idToken: body.idToken, nonce: body.nonce, password: body.password, logger: logger)
        return .ok(.init(body: .json(.init(signedIn))))
    }

    func linkIdentity(_ input: Operations.LinkIdentity.Input) async throws -> Operations.LinkIdentity.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let caller = try Identity.required
        let linked = try await services.providerSignIn.link(
            issuer: body.issuer, idToken: body.idToken, nonce: body.nonce, password: body.password, to: caller, logger: logger)
        let profile = try await services.profiles.profile(of: caller.userID, logger: logger)
        return .ok(.init(body: .json(.init(try await services.accounts.me(caller, logger: logger), linked: linked, profile: profile))))
    }

    func unlinkIdentity(_ input: Operations.UnlinkIdentity.Input) async throws -> Operations.UnlinkIdentity.Output {
        guard let provider = UUID(uuidString: input.path.providerId) else { throw ProviderSignInError.notLinked }
        try await services.providerSignIn.unlink(provider: provider, from: try Identity.required, logger: logger)
        return .noContent(.init())
    }
}

extension Components.Schemas.IdentityProviderList: CursorList {}

extension Components.Schemas.Me {
    init(_ user: User, linked: ProviderSignIn.Linked, profile: Profiles.Profile) {
        self.init(
            id: user.id.description, email: user.email, name: user.name,
            role: Components.Schemas.Me.RolePayload(rawValue: user.role.rawValue)!,
            storeId: user.storeID?.description, createdAt: user.createdAt, disabledAt: user.disabledAt, hasPassword: linked.hasPassword,
            identities: linked.identities.map {
                .init(
                    providerId: $0.providerID.uuidString.lowercased(), issuer: $0.issuer, name: $0.name, email: $0.email, linkedAt: $0.linkedAt,
                    lastSignedInAt: $0.lastSignedInAt)
            }, pendingEmail: profile.pendingEmail,
            messagePreferences: .init(backInStock: profile.preferences.backInStock, reminders: profile.preferences.reminders))
    }
}
