import Foundation

public enum WebhookEndpointTag {}
public enum WebhookDeliveryTag {}
typealias WebhookEndpointID = ID<WebhookEndpointTag>
typealias WebhookDeliveryID = ID<WebhookDeliveryTag>

/// Where a store (or, with no store, the whole chain) wants its events sent. The secret is not
/// here: it is read only by the dispatcher, and shown to people once, when the endpoint is made.
struct WebhookEndpoint: Sendable, Equatable {
    var id: WebhookEndpointID
    /// Nil: every store of the chain (an admin's endpoint).
    var store: StoreID?
    var url: String
    var description: String
    /// Empty: every type.
    var eventTypes: [String]
    var enabled: Bool
    /// Why the dispatcher turned it off; nil when a person did, or while enabled.
    var disabledReason: String?
    /// The first failed attempt since the last success.
    var failingSince: Date?
    var createdAt: Date
    var updatedAt: Date
}
