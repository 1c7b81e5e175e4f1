/// What can go wrong opening a live event stream, and how each looks over HTTP.
package enum EventStreamError: Error, APIErrorConvertible, Equatable {
    /// The session has all `limit` of its streams open already.
    case tooManyStreams(limit: Int)
    /// `Last-Event-ID` is not the sequence number of an event.
    case invalidLastEventID

    package var apiError: APIError {
        switch self {
        case .tooManyStreams(let limit):
            APIError(
                .tooManyRequests, "too_many_streams",
                "This session has \(limit) live event streams open already; close one before opening another.",
                details: ["limit": .int(limit)], headers: [.retryAfter: "5"])
        case .invalidLastEventID:
            APIError(
                .unprocessableContent, "invalid_last_event_id", "Last-Event-ID must be the sequence number of an event.",
                details: ["field": "Last-Event-ID"])
        }
    }
}
