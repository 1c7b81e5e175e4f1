import Foundation
import Logging
import OpenAPIRuntime
import QRReceipt

/// The implementation of the OpenAPI contract (`openapi.yaml`). One extension per route
/// group (`API+Health.swift`, ...), each giving its domain service as a computed property
/// (`var webhooks: Webhooks`). A request takes one path: handler (HTTP in and out) → domain
/// service (a struct holding `Database`: rules, the caller's `StoreScope`, transactions,
/// domain errors) → `*Queries` (bound SQL, the only place SQL is written).
struct API: APIProtocol {
    let database: Database
    let migrations: [Migration]
    /// The pickup keys, reloaded when they change on disk.
    let keys: KeyringStore
    /// Signs pickup tokens (``PickupKeyring/signer``) and verifies them at collection: the
    /// keyring of the moment.
    var keyring: PickupKeyring { keys.current }
    let accounts: Accounts
    /// Live streams of the outbox's events (server-sent events).
    let events: EventStream
    /// Seal webhook secrets at rest (`WebhookSecrets`).
    let dataKeys: DataKeyStore
    /// Now, for the slot rules (`AppConfiguration.clock`).
    var clock: @Sendable () -> Date = { Date() }
    /// Webhook URLs whose host is not public are accepted (`FULFILMENT_WEBHOOK_ALLOW_PRIVATE`).
    var webhookAllowPrivate = false
    /// Identity providers (issue 33): how sign-in with them is set up, and what this instance
    /// knows of each (discovery, keys).
    var providerSettings = ProviderSignInSettings()
    var providerDirectory = ProviderDirectory()

    var providerSignIn: ProviderSignIn {
        ProviderSignIn(database: database, accounts: accounts, directory: providerDirectory, settings: providerSettings, clock: clock)
    }

    var logger: Logger { RequestScope.current.logger }
}
