import Foundation
import Logging
import PostgresNIO

/// The SQL of identity providers, the accounts they are linked to, and browser sign-ins under way.
package enum IdentityProviderQueries {
    /// A provider from a row of `identity_providers`' columns
    /// `id, issuer, name, client_id, client_secret_file, audiences`.
    package static func provider(_ row: PostgresRow) throws -> IdentityProvider {
        let r = row.makeRandomAccess()
        return IdentityProvider(
            id: try r["id"].decode(UUID.self), issuer: try r["issuer"].decode(String.self), name: try r["name"].decode(String.self),
            clientID: try r["client_id"].decode(String.self), clientSecretFile: try r["client_secret_file"].decode(String?.self),
            audiences: try r["audiences"].decode([String].self))
    }

    package static func all(on client: PostgresClient, logger: Logger) async throws -> [IdentityProvider] {
        let rows = try await client.run(
            "SELECT id, issuer, name, client_id, client_secret_file, audiences FROM identity_providers ORDER BY name, issuer", logger: logger)
        var providers: [IdentityProvider] = []
        for try await row in rows { providers.append(try provider(row)) }
        return providers
    }

    package static func provider(issuer: String, on client: PostgresClient, logger: Logger) async throws -> IdentityProvider? {
        let rows = try await client.run(
            "SELECT id, issuer, name, client_id, client_secret_file, audiences FROM identity_providers WHERE issuer = \(issuer)",
            logger: logger)
        for try await row in rows { return try provider(row) }
        return nil
    }

    package static func provider(id: UUID, on client: PostgresClient, logger: Logger) async throws -> IdentityProvider? {
        let rows = try await client.run(
            "SELECT id, issuer, name, client_id, client_secret_file, audiences FROM identity_providers WHERE id = \(id)", logger: logger)
        for try await row in rows { return try provider(row) }
        return nil
    }

    /// Adds a provider, or replaces the one with its issuer (keeping its id, so its links stay).
    package static func save(_ provider: IdentityProvider, on client: PostgresClient, logger: Logger) async throws -> IdentityProvider {
        let rows = try await client.run(
            """
            INSERT INTO identity_providers (id, issuer, name, client_id, client_secret_file, audiences)
            VALUES (\(provider.id), \(provider.issuer), \(provider.name), \(provider.clientID), \(provider.clientSecretFile), \(provider.audiences))
            ON CONFLICT (issuer) DO UPDATE SET name = excluded.name, client_id = excluded.client_id,
                client_secret_file = excluded.client_secret_file, audiences = excluded.audiences
            RETURNING id, issuer, name, client_id, client_secret_file, audiences
            """, logger: logger)
        for try await row in rows { return try self.provider(row) }
        return provider
    }

    /// Removes a provider and its links; answers how many accounts were linked to it, or nil when there was none.
    package static func remove(issuer: String, on client: PostgresClient, logger: Logger) async throws -> Int? {
        let rows = try await client.run(
            """
            WITH gone AS (DELETE FROM identity_providers WHERE issuer = \(issuer) RETURNING id)
            SELECT (SELECT count(*) FROM identity_links l JOIN gone ON l.provider_id = gone.id)::int FROM gone
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return nil
    }
}

/// Links between a provider's subjects and accounts.
extension IdentityProviderQueries {
    /// Serialises everything done for one subject of one provider until the transaction ends,
    /// on every instance: two first sign-ins at once create one account and one link.
    package static func lockSubject(_ subject: String, of provider: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            "SELECT pg_advisory_xact_lock(hashtextextended(\(provider.uuidString) || ' ' || \(subject), 33))", logger: logger)
    }

    /// The account this subject signs in to, and whether it has a password.
    package static func linkedUser(
        subject: String, provider: UUID, on connection: PostgresConnection, logger: Logger
    ) async throws -> User? {
        let rows = try await connection.run(
            """
            SELECT u.id, u.email, u.name, u.role, u.store_id, u.created_at, u.disabled_at
            FROM identity_links l JOIN users u ON u.id = l.user_id
            WHERE l.provider_id = \(provider) AND l.subject = \(subject)
            FOR SHARE OF u
            """, logger: logger)
        for try await row in rows { return try UserQueries.user(row) }
        return nil
    }

    /// The account with this email (any case), and whether it has a password, locked until the
    /// transaction ends (a password change or an erasure waits).
    package static func account(email: String, on connection: PostgresConnection, logger: Logger) async throws -> (User, hasPassword: Bool)? {
        let rows = try await connection.run(
            """
            SELECT id, email, name, role, store_id, created_at, disabled_at, password_hash LIKE '$2%' AS has_password
            FROM users WHERE lower(email) = lower(\(email)) AND erased_at IS NULL
            FOR UPDATE
            """, logger: logger)
        for try await row in rows { return (try UserQueries.user(row), try row.makeRandomAccess()["has_password"].decode(Bool.self)) }
        return nil
    }

    /// Links `subject` to `user`; false when the subject is linked already, or the user has
    /// another subject of this provider (`conflict` says which).
    package static func link(
        subject: String, provider: UUID, user: UserID, email: String?, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let rows = try await connection.run(
            """
            SELECT EXISTS (SELECT 1 FROM identity_links WHERE provider_id = \(provider) AND subject = \(subject)) AS subject_taken,
                   EXISTS (SELECT 1 FROM identity_links WHERE provider_id = \(provider) AND user_id = \(user.rawValue)) AS user_has_one
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            if try r["subject_taken"].decode(Bool.self) { throw ProviderSignInError.identityInUse }
            if try r["user_has_one"].decode(Bool.self) { throw ProviderSignInError.providerAlreadyLinked }
        }
        try await connection.run(
            """
            INSERT INTO identity_links (provider_id, subject, user_id, email, last_signed_in_at)
            VALUES (\(provider), \(subject), \(user.rawValue), \(email), now())
            """, logger: logger)
    }

    package static func touch(subject: String, provider: UUID, email: String?, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE identity_links SET last_signed_in_at = now(), email = coalesce(\(email), email)
            WHERE provider_id = \(provider) AND subject = \(subject)
            """, logger: logger)
    }

    package static func links(of user: UserID, on client: PostgresClient, logger: Logger) async throws -> [LinkedIdentity] {
        let rows = try await client.run(
            """
            SELECT p.id, p.issuer, p.name, l.email, l.linked_at, l.last_signed_in_at
            FROM identity_links l JOIN identity_providers p ON p.id = l.provider_id
            WHERE l.user_id = \(user.rawValue) ORDER BY l.linked_at, p.name
            """, logger: logger)
        var links: [LinkedIdentity] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            links.append(
                LinkedIdentity(
                    providerID: try r["id"].decode(UUID.self), issuer: try r["issuer"].decode(String.self), name: try r["name"].decode(String.self),
                    email: try r["email"].decode(String?.self), linkedAt: try r["linked_at"].decode(Date.self),
                    lastSignedInAt: try r["last_signed_in_at"].decode(Date?.self)))
        }
        return links
    }

    package static func hasPassword(_ user: UserID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run("SELECT password_hash LIKE '$2%' FROM users WHERE id = \(user.rawValue)", logger: logger)
        for try await has in rows.decode(Bool.self) { return has }
        return false
    }

    /// Removes the user's link to `provider` unless it is their only way to sign in (no password,
    /// no other link), deciding on the locked account row so two unlinks at once cannot leave none.
    package static func unlink(_ provider: UUID, from user: UserID, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.run(
            """
            SELECT u.password_hash LIKE '$2%' AS has_password,
                   (SELECT count(*) FROM identity_links l WHERE l.user_id = u.id)::int AS links,
                   EXISTS (SELECT 1 FROM identity_links l WHERE l.user_id = u.id AND l.provider_id = \(provider)) AS linked
            FROM users u WHERE u.id = \(user.rawValue) FOR UPDATE
            """, logger: logger)
        var state: (Bool, Int, Bool)?
        for try await row in rows {
            let r = row.makeRandomAccess()
            state = (try r["has_password"].decode(Bool.self), try r["links"].decode(Int.self), try r["linked"].decode(Bool.self))
        }
        guard let (hasPassword, links, linked) = state, linked else { throw ProviderSignInError.notLinked }
        guard hasPassword || links > 1 else { throw ProviderSignInError.lastSignInMethod }
        try await connection.run(
            "DELETE FROM identity_links WHERE user_id = \(user.rawValue) AND provider_id = \(provider)", logger: logger)
    }

    /// Remembers an exchanged ID token (its SHA-256) until `expiry`; false when it was already
    /// remembered. Each call also forgets up to 100 tokens that have expired, so the table holds
    /// only tokens still valid, at any rate of sign-ins.
    package static func recordExchange(_ hash: [UInt8], until expiry: Date, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            WITH forgotten AS (
                DELETE FROM exchanged_id_tokens WHERE token_hash IN (
                    SELECT token_hash FROM exchanged_id_tokens WHERE expires_at < now() ORDER BY expires_at LIMIT 100))
            INSERT INTO exchanged_id_tokens (token_hash, expires_at) VALUES (\(Data(hash)), \(expiry))
            ON CONFLICT (token_hash) DO NOTHING RETURNING true
            """, logger: logger)
        return rows.collect().first != nil
    }
}
