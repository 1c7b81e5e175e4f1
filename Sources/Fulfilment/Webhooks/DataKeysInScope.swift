import ServiceLifecycle

/// Runs `base` (the webhook dispatcher) with the instance's data keys in scope, so the claim can
/// open the secrets it reads.
struct DataKeysInScope<Base: Service>: Service {
    let keys: DataKeyStore
    let base: Base

    func run() async throws {
        try await WebhookSecrets.$keys.withValue(keys) { try await base.run() }
    }
}
