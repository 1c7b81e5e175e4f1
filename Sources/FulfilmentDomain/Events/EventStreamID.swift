public enum EventStreamTag {}
/// A live event stream's claim on its session (`event_streams`, migration 025).
package typealias EventStreamID = ID<EventStreamTag>
