import ServiceLifecycle

/// Runs `base` (the webhook dispatcher) with the instance's data keys in scope, so the claim can
/// open the secrets it reads.
package struct DataKeysInScope<Base: Service>: Service {
    package let keys: DataKeyStore
    package let base: Base

    package init(keys: DataKeyStore, base: Base) {
        self.keys = keys
        self.base = base
    }

    package func run() async throws {
        try await WebhookSecrets.$keys.withValue(keys) { try await base.run() }
    }
}
