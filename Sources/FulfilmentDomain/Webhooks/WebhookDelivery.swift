import Foundation

/// One event to one endpoint, as its managers see it.
package struct WebhookDelivery: Sendable, Equatable {
    package enum Status: String, Sendable { case pending, succeeded, failed }

    package var id: WebhookDeliveryID
    package var eventID: EventID
    package var eventType: String
    package var status: Status
    package var attempts: Int
    package var lastResponseCode: Int?
    package var lastError: String?
    package var lastAttemptAt: Date?
    /// When it is next sent; only while pending.
    package var nextAttemptAt: Date?
    package var createdAt: Date
}
