public enum EventTag {}
/// An outbox event's id: the `webhook-id` of every delivery of it, the same on every attempt.
public typealias EventID = ID<EventTag>
