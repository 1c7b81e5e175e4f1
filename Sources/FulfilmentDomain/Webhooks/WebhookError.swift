import HTTPTypes

/// What can go wrong with webhook endpoints and their deliveries, and how each looks over HTTP.
package enum WebhookError: Error, APIErrorConvertible, Equatable, DatabaseErrorMapping {
    /// No such endpoint, or one of another store (a manager never learns it exists).
    case endpointNotFound
    case deliveryNotFound
    /// The store named in a new endpoint does not exist.
    case storeNotFound
    /// A manager named another store than their own.
    case otherStore
    case invalidURL
    /// The URL's host is an address that is not public, or `localhost` (`WebhookAddress`), and
    /// `FULFILMENT_WEBHOOK_ALLOW_PRIVATE` is off.
    case addressNotPublic
    case invalidField(String, String)
    /// A redelivery of a delivery that is still pending: it will be sent anyway.
    case deliveryPending
    /// A redelivery to a disabled endpoint would never be sent.
    case endpointDisabled
    /// The database lists no data key this instance holds to seal a new secret with (a 500: the
    /// start-up check of `WebhookSecretStorage.prepare` makes this a deployment mistake).
    case noDataKey
    /// A write that returns its row returned none (a 500: it cannot happen).
    case notRecorded

    /// The one refusal of PostgreSQL a webhook statement meets: a new endpoint naming a store
    /// that does not exist (the foreign key of `webhook_endpoints.store_id`).
    package init?(databaseError error: any Error) {
        switch error.sqlState {
        case SQLState.foreignKeyViolation?: self = .storeNotFound
        default: return nil
        }
    }

    package var apiError: APIError {
        switch self {
        case .endpointNotFound: .notFound("The webhook endpoint")
        case .deliveryNotFound: .notFound("The delivery")
        case .storeNotFound: .notFound("The store")
        case .otherStore:
            APIError(.forbidden, "forbidden", "A manager creates webhook endpoints for their own store only.")
        case .invalidURL:
            APIError(
                .unprocessableContent, "invalid_url",
                "The URL must be http:// or https:// with a host name, at most 2000 characters, without spaces or a #fragment.",
                details: ["field": "url"])
        case .addressNotPublic:
            APIError(
                .unprocessableContent, "webhook_address_not_public",
                "The URL's host must be a public internet address: loopback, private, link-local, shared and multicast addresses (in any spelling) and localhost are refused.",
                details: ["field": "url"])
        case .invalidField(let field, let message): .invalidField(field, message)
        case .deliveryPending:
            APIError(.conflict, "delivery_pending", "This delivery is still pending: it will be sent at its next attempt.")
        case .endpointDisabled:
            APIError(.conflict, "webhook_disabled", "This endpoint is disabled; enable it first (PATCH enabled: true).")
        case .noDataKey, .notRecorded: .internal
        }
    }
}
