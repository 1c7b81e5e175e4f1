import Foundation

/// An endpoint's secret as the database stores it: plain (written before migration 023), or
/// sealed under a data key (`WebhookSecrets`).
package struct StoredWebhookSecret: Sendable {
    package var endpoint: WebhookEndpointID
    package var plain: String?
    package var keyID: Int
    package var sealed: Data
}
