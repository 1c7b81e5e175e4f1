import Foundation

public enum WebhookEndpointTag {}
public enum WebhookDeliveryTag {}
package typealias WebhookEndpointID = ID<WebhookEndpointTag>
package typealias WebhookDeliveryID = ID<WebhookDeliveryTag>

/// Where a store (or, with no store, the whole chain) wants its events sent. The secret is not
/// here: it is read only by the dispatcher, and shown to people once, when the endpoint is made.
package struct WebhookEndpoint: Sendable, Equatable {
    package var id: WebhookEndpointID
    /// Nil: every store of the chain (an admin's endpoint).
    package var store: StoreID?
    package var url: String
    package var description: String
    /// Empty: every type.
    package var eventTypes: [String]
    package var enabled: Bool
    /// Why the dispatcher turned it off; nil when a person did, or while enabled.
    package var disabledReason: String?
    /// The first failed attempt since the last success.
    package var failingSince: Date?
    package var createdAt: Date
    package var updatedAt: Date
}
