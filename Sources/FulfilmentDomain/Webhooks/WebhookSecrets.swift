import Foundation
import ServiceLifecycle

/// Webhook signing secrets at rest (issue 24): sealed with AES-256-GCM under the newest data
/// key, the key's id stored beside the ciphertext, and bound to their endpoint (the associated
/// data names the endpoint's id), so a dump alone reveals no secret and a ciphertext copied to
/// another endpoint's row does not open.
package enum WebhookSecrets {
    /// The data keys the webhook dispatcher opens secrets with, in scope for its tasks
    /// (``DataKeysInScope``): the claim (`WebhookDeliveryQueries.claim`) opens them where it reads them.
    @TaskLocal package static var keys: DataKeyStore?

    /// The associated data of an endpoint's secret: what a ciphertext is bound to.
    package static func context(_ endpoint: WebhookEndpointID) -> Data {
        Data("webhook_endpoints.secret \(endpoint)".utf8)
    }

    package static func seal(_ secret: String, endpoint: WebhookEndpointID, with key: DataKey) throws -> Data {
        try key.seal(Data(secret.utf8), context: context(endpoint))
    }

    /// The plain secret of `endpoint`, sealed under data key `keyID`.
    /// - Throws: ``WebhookSecretError``: the key is not held, or the ciphertext is not this
    ///   endpoint's under that key (altered, or moved from another row).
    package static func open(_ sealed: Data, keyID: Int, endpoint: WebhookEndpointID, keys: DataKeyStore?) throws(WebhookSecretError) -> String {
        guard let keys else { throw .noKeys }
        guard let key = keys.key(keyID) else { throw .keyNotHeld(keyID: keyID, endpoint: endpoint) }
        guard let plain = try? key.open(sealed, context: context(endpoint)), let secret = String(data: plain, encoding: .utf8) else {
            throw .notOpened(keyID: keyID, endpoint: endpoint)
        }
        return secret
    }
}
