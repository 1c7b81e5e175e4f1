import Foundation

/// One event as the outbox holds it: its place in its store's sequence and the JSON every
/// subscriber receives (`event_json`, the same text a webhook delivery signs).
package struct OutboxEvent: Sendable, Equatable {
    package var sequence: Int64
    package var type: String
    package var json: String
}
