import Foundation

/// One event to one endpoint, as its managers see it.
struct WebhookDelivery: Sendable, Equatable {
    enum Status: String, Sendable { case pending, succeeded, failed }

    var id: WebhookDeliveryID
    var eventID: EventID
    var eventType: String
    var status: Status
    var attempts: Int
    var lastResponseCode: Int?
    var lastError: String?
    var lastAttemptAt: Date?
    /// When it is next sent; only while pending.
    var nextAttemptAt: Date?
    var createdAt: Date
}
