import Crypto
import Foundation
import Logging
import PostgresNIO

/// Signing in with an identity provider (issue 33): the apps' token exchange, the browsers'
/// authorization code flow (`ProviderSignIn+Browser`), and the links between a provider's
/// subjects and accounts.
///
/// Who an ID token signs in, in order:
/// 1. the account its subject is linked to;
/// 2. else, only when the provider verified the email: the account with that email, linked only
///    once its password is given (`password_required`): anyone who controls an email at some
///    provider would otherwise take over the shop account that uses it;
/// 3. else a new customer account (never from the workforce provider, which creates none).
package struct ProviderSignIn: Sendable {
    package let database: Database
    package let accounts: Accounts
    package let directory: ProviderDirectory
    package let settings: ProviderSignInSettings
    package var clock: @Sendable () -> Date = { Date() }

    package func providers(logger: Logger) async throws -> [IdentityProvider] {
        try await IdentityProviderQueries.all(on: database.client, logger: logger)
    }

    package func provider(issuer: String, logger: Logger) async throws -> IdentityProvider {
        let issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard issuer.count <= 500, let provider = try await IdentityProviderQueries.provider(issuer: issuer, on: database.client, logger: logger)
        else { throw ProviderSignInError.unknownProvider }
        return provider
    }

    /// Verifies an ID token an app obtained natively (Sign in with Apple on iOS) and signs its
    /// person in; `password` links an existing account with the token's email.
    package func exchange(issuer: String, idToken: String, nonce: String?, password: String?, logger: Logger) async throws -> Accounts.SignedIn {
        let provider = try await provider(issuer: issuer, logger: logger)
        let identity = try await verify(idToken, from: provider, audiences: provider.acceptedAudiences, nonce: nonce, logger: logger)
        let signedIn = try await signIn(identity, with: provider, password: password, logger: logger)
        // A token is exchanged once (issue 41): remembered by its hash until it expires, once it
        // has signed someone in (a refusal that asks for a password lets the same token come back
        // with it). Two exchanges of one token at once: the second to record it ends its session.
        let recorded = try await IdentityProviderQueries.recordExchange(
            Array(SHA256.hash(data: Data(idToken.utf8))), until: identity.expiresAt ?? clock(), on: database.client, logger: logger)
        guard recorded else {
            try await SessionQueries.end(tokenHash: signedIn.token.hash, reason: .logout, on: database.client, logger: logger)
            throw ProviderSignInError.alreadyExchanged
        }
        return signedIn
    }

    package func verify(_ idToken: String, from provider: IdentityProvider, audiences: [String], nonce: String?, logger: Logger) async throws
        -> ProviderIdentity
    {
        let token = try IDToken(compact: idToken)
        let rules = IDTokenRules(issuer: provider.issuer, audiences: audiences, nonce: nonce, now: clock())
        return try await directory.verify(token, rules: rules, logger: logger)
    }

    /// Signs in the person `identity` names, by the rules above, in one transaction per outcome.
    package func signIn(_ identity: ProviderIdentity, with provider: IdentityProvider, password: String?, logger: Logger) async throws
        -> Accounts.SignedIn
    {
        let isWorkforce = provider.issuer == settings.workforceIssuer
        if let signedIn = try await signInLinked(identity, with: provider, isWorkforce: isWorkforce, logger: logger) { return signedIn }
        guard identity.emailVerified, let email = identity.email else { throw ProviderSignInError.emailNotVerified }
        if let (user, hash) = try await UserQueries.credentials(email: email, on: database.client, logger: logger) {
            try checkMayUse(provider, isWorkforce: isWorkforce, user: user)
            guard PasswordHasher.isHash(hash) else {
                // No password: an account made through a provider. It may be this very subject's,
                // made by a first sign-in that raced this one (a double tap, a second device) between
                // the link lookup above and this read: look at the link again before refusing.
                if let signedIn = try await signInLinked(identity, with: provider, isWorkforce: isWorkforce, logger: logger) { return signedIn }
                throw ProviderSignInError.accountExists
            }
            guard let password else { throw ProviderSignInError.passwordRequired(email: user.email, user: user.id) }
            let (_, matches) = try await accounts.checkPassword(
                password, emailKey: user.email.lowercased(), address: ClientAddress.current, lane: .signIn, logger: logger
            ) { (user, hash) }
            guard matches else { throw AccountError.inField(.wrongPassword, field: "password") }
            return try await linkAndSignIn(identity, with: provider, to: user, logger: logger)
        }
        guard !isWorkforce else { throw ProviderSignInError.noWorkforceAccount }
        return try await createAndSignIn(identity, email: email, with: provider, logger: logger)
    }

    /// The account the subject is linked to, signed in; nil when it is linked to none.
    private func signInLinked(_ identity: ProviderIdentity, with provider: IdentityProvider, isWorkforce: Bool, logger: Logger) async throws
        -> Accounts.SignedIn?
    {
        let token = SessionToken.generate()
        return try await database.transaction(logger: logger) { connection -> Accounts.SignedIn? in
            try await IdentityProviderQueries.lockSubject(identity.subject, of: provider.id, on: connection, logger: logger)
            guard
                let user = try await IdentityProviderQueries.linkedUser(
                    subject: identity.subject, provider: provider.id, on: connection, logger: logger)
            else { return nil }
            try checkMayUse(provider, isWorkforce: isWorkforce, user: user)
            try await IdentityProviderQueries.touch(
                subject: identity.subject, provider: provider.id, email: identity.emailVerified ? identity.email : nil, on: connection,
                logger: logger)
            guard try await SessionQueries.start(userID: user.id, tokenHash: token.hash, on: connection, logger: logger) else {
                throw ProviderSignInError.accountDisabled
            }
            return Accounts.SignedIn(user: user, token: token)
        }
    }

    private func linkAndSignIn(_ identity: ProviderIdentity, with provider: IdentityProvider, to user: User, logger: Logger) async throws
        -> Accounts.SignedIn
    {
        let token = SessionToken.generate()
        try await database.transaction(logger: logger) { connection in
            try await IdentityProviderQueries.lockSubject(identity.subject, of: provider.id, on: connection, logger: logger)
            try await IdentityProviderQueries.link(
                subject: identity.subject, provider: provider.id, user: user.id, email: identity.email, on: connection, logger: logger)
            guard try await SessionQueries.start(userID: user.id, tokenHash: token.hash, on: connection, logger: logger) else {
                throw ProviderSignInError.accountDisabled
            }
        }
        logger.notice("identity provider linked", metadata: ["user": "\(user.id)", "issuer": "\(provider.issuer)"])
        return Accounts.SignedIn(user: user, token: token)
    }

    /// A new customer, with no password (`!` matches none), linked and signed in, in one
    /// transaction. Two first sign-ins at once (a double tap, two devices): the second waits on
    /// the subject's lock, then finds the first's link and signs in to that account.
    private func createAndSignIn(_ identity: ProviderIdentity, email: String, with provider: IdentityProvider, logger: Logger) async throws
        -> Accounts.SignedIn
    {
        let email = try AccountRules.email(email)
        let name = (try? AccountRules.name(identity.name ?? "")) ?? String(email.prefix { $0 != "@" })
        let token = SessionToken.generate()
        let (user, created) = try await database.transaction(logger: logger) { connection in
            try await IdentityProviderQueries.lockSubject(identity.subject, of: provider.id, on: connection, logger: logger)
            var created = false
            var user = try await IdentityProviderQueries.linkedUser(subject: identity.subject, provider: provider.id, on: connection, logger: logger)
            if user == nil {
                let inserted = try await UserQueries.insert(
                    email: email, name: name, passwordHash: Accounts.noPassword, role: .customer, storeID: nil, on: connection, logger: logger)
                try await IdentityProviderQueries.link(
                    subject: identity.subject, provider: provider.id, user: inserted.id, email: email, on: connection, logger: logger)
                (user, created) = (inserted, true)
            }
            guard let user, try await SessionQueries.start(userID: user.id, tokenHash: token.hash, on: connection, logger: logger) else {
                throw ProviderSignInError.accountDisabled
            }
            return (user, created)
        }
        if created {
            logger.notice("account created through an identity provider", metadata: ["user": "\(user.id)", "issuer": "\(provider.issuer)"])
        }
        return Accounts.SignedIn(user: user, token: token)
    }

    /// Whether `user` may sign in through `provider`: not a disabled account, and staff and
    /// managers only through the workforce provider when one is set.
    package func checkMayUse(_ provider: IdentityProvider, isWorkforce: Bool, user: User) throws(ProviderSignInError) {
        guard user.disabledAt == nil else { throw .accountDisabled }
        if user.role.worksInStore, settings.workforceIssuer != nil, !isWorkforce { throw .workforceSignInRequired }
    }
}

/// The providers linked to one's own account (`GET /v1/me`, `POST /v1/me/identities`, `DELETE /v1/me/identities/{providerId}`).
extension ProviderSignIn {
    package struct Linked: Sendable {
        package var identities: [LinkedIdentity]
        package var hasPassword: Bool
    }

    package func linked(_ caller: Identity, logger: Logger) async throws -> Linked {
        async let identities = IdentityProviderQueries.links(of: caller.userID, on: database.client, logger: logger)
        async let hasPassword = IdentityProviderQueries.hasPassword(caller.userID, on: database.client, logger: logger)
        return Linked(identities: try await identities, hasPassword: try await hasPassword)
    }

    /// Links the provider account of `idToken` to the caller's own, after the caller proves their
    /// password (when the account has one): a stolen session alone cannot add a way in.
    /// Linking the same subject again changes nothing.
    package func link(issuer: String, idToken: String, nonce: String?, password: String?, to caller: Identity, logger: Logger) async throws -> Linked
    {
        let provider = try await provider(issuer: issuer, logger: logger)
        let identity = try await verify(idToken, from: provider, audiences: provider.acceptedAudiences, nonce: nonce, logger: logger)
        let user = try await accounts.me(caller, logger: logger)
        try checkMayUse(provider, isWorkforce: provider.issuer == settings.workforceIssuer, user: user)
        if try await IdentityProviderQueries.hasPassword(caller.userID, on: database.client, logger: logger) {
            do {
                _ = try await accounts.confirmPassword(password ?? "", of: caller, logger: logger)
            } catch AccountError.wrongPassword {
                throw AccountError.inField(.wrongPassword, field: "password")
            }
        }
        try await database.transaction(logger: logger) { connection in
            try await IdentityProviderQueries.lockSubject(identity.subject, of: provider.id, on: connection, logger: logger)
            if let linked = try await IdentityProviderQueries.linkedUser(
                subject: identity.subject, provider: provider.id, on: connection, logger: logger)
            {
                guard linked.id == caller.userID else { throw ProviderSignInError.identityInUse }
                return
            }
            try await IdentityProviderQueries.link(
                subject: identity.subject, provider: provider.id, user: caller.userID, email: identity.email, on: connection, logger: logger)
        }
        return try await linked(caller, logger: logger)
    }

    package func unlink(provider: UUID, from caller: Identity, logger: Logger) async throws {
        try await database.transaction(logger: logger) { connection in
            try await IdentityProviderQueries.unlink(provider, from: caller.userID, on: connection, logger: logger)
        }
    }
}
