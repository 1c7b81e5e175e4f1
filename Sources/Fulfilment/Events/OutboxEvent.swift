import Foundation

/// One event as the outbox holds it: its place in its store's sequence and the JSON every
/// subscriber receives (`event_json`, the same text a webhook delivery signs).
struct OutboxEvent: Sendable, Equatable {
    var sequence: Int64
    var type: String
    var json: String
}
