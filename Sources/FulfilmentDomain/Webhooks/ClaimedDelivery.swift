/// An attempt the dispatcher has claimed: everything it needs to send it, read in the claim.
package struct ClaimedDelivery: Sendable {
    package var id: WebhookDeliveryID
    package var endpoint: WebhookEndpointID
    package var eventID: EventID
    /// This attempt's number (1 for the first).
    package var attempt: Int
    package var url: String
    /// Never logged.
    package var secret: String
    /// `event_json(e)`: the exact bytes sent and signed.
    package var body: String
}
