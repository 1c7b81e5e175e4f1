import Foundation

/// An endpoint's secret as the database stores it: plain (written before migration 023), or
/// sealed under a data key (`WebhookSecrets`).
struct StoredWebhookSecret: Sendable {
    var endpoint: WebhookEndpointID
    var plain: String?
    var keyID: Int
    var sealed: Data
}
