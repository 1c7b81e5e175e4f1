/// An attempt the dispatcher has claimed: everything it needs to send it, read in the claim.
struct ClaimedDelivery: Sendable {
    var id: WebhookDeliveryID
    var endpoint: WebhookEndpointID
    var eventID: EventID
    /// This attempt's number (1 for the first).
    var attempt: Int
    var url: String
    /// Never logged.
    var secret: String
    /// `event_json(e)`: the exact bytes sent and signed.
    var body: String
}
