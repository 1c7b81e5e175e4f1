import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// The identity providers customers and staff may sign in with (issue 33): Sign in with Apple,
/// Google, the chain's workforce provider. Containers may give them in the environment instead
/// (`FULFILMENT_IDENTITY_PROVIDERS`), saved when `serve` starts.
struct IdentityProviderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idp", abstract: "Manage the OpenID Connect identity providers one may sign in with.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a provider, or change the one with this issuer (its links stay). Its discovery document is read first.")

        @Option(help: "The issuer, e.g. https://accounts.google.com (https; http only on this machine).")
        var issuer: String

        @Option(help: "The service's client id at the provider (the web sign-in's).")
        var clientId: String

        @Option(
            help:
                "A file holding the client secret, read by every instance when it redeems a code (not stored in the database). Leave out for a public client (PKCE alone)."
        )
        var clientSecretFile: String?

        @Option(help: "What the button says: \"Sign in with <name>\". Default: the issuer's host.")
        var name: String?

        @Option(
            name: .customLong("audience"),
            help: "An app's own client id whose ID tokens the token exchange also accepts (an iOS bundle id for Apple); repeat for several.")
        var audiences: [String] = []

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = makeLogger(level: .warning)
            let checkedIssuer: String
            do { checkedIssuer = try IdentityProvider.checkedIssuer(issuer) } catch { throw ValidationError("\(error)") }
            let secretFile = clientSecretFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            let provider = IdentityProvider(
                issuer: checkedIssuer, name: name ?? URL(string: checkedIssuer)?.host ?? checkedIssuer, clientID: clientId,
                clientSecretFile: secretFile,
                audiences: audiences)
            try await database.withDatabase(logger: logger) { connection in
                try await withDatabaseClient(connection: connection, logger: logger) { db in
                    do {
                        let saved = try await IdentityProviders(database: db).save(provider, logger: logger)
                        print("Saved \(saved.name) (\(saved.issuer)), id \(saved.id.uuidString.lowercased()).")
                        print("Register this redirect URI at the provider: <FULFILMENT_PUBLIC_URL>/signin/callback")
                    } catch let error as IdentityProviderConfigurationError {
                        throw ValidationError(error.description)
                    }
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the providers.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = makeLogger(level: .warning)
            try await database.withDatabase(logger: logger) { connection in
                try await withDatabaseClient(connection: connection, logger: logger) { db in
                    for provider in try await IdentityProviders(database: db).all(logger: logger) {
                        let secret = provider.clientSecretFile.map { "secret file \($0)" } ?? "public client"
                        let apps = provider.audiences.isEmpty ? "" : ", apps \(provider.audiences.joined(separator: " "))"
                        print("\(provider.name)\t\(provider.issuer)\tclient \(provider.clientID), \(secret)\(apps)")
                    }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a provider and every account's link to it.")

        @Option(help: "The provider's issuer.")
        var issuer: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = makeLogger(level: .warning)
            try await database.withDatabase(logger: logger) { connection in
                try await withDatabaseClient(connection: connection, logger: logger) { db in
                    guard let links = try await IdentityProviders(database: db).remove(issuer: issuer, logger: logger) else {
                        throw ValidationError("No provider has the issuer \(issuer).")
                    }
                    print("Removed \(issuer); \(links) account(s) were linked to it.")
                }
            }
        }
    }
}
