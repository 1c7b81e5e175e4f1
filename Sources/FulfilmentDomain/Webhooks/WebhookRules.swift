import Foundation

/// What an endpoint's fields must be, checked before any SQL (the table checks the URL again).
package enum WebhookRules {
    /// Every type the outbox triggers (`sql/routines/*_outbox.sql`) and the late-risk sweep
    /// (`sweep_order_timeliness`) write; the contract's `WebhookEventType`.
    package static let eventTypes = [
        "order.placed", "order.ready_for_pickup", "order.at_collection_point", "order.collected", "order.cancelled",
        "order.substitution_proposed", "order.substitution_decided", "order.customer_arrived", "order.changed", "order.at_risk", "order.late",
        "payment.succeeded", "stock.low",
        "favourite.back_in_stock",
    ]

    /// The contract's pattern for `url`, verbatim: http(s), a host name or IPv4 address, an
    /// optional port, then only characters a URL may carry unescaped (or `%` escapes), and no
    /// fragment. Kept this narrow so that every URL the contract admits is one we can send to.
    package static let urlPattern = #"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$"#

    /// What the pattern admits, and (unless `allowPrivate`) whose host is not an address that is
    /// not public, nor `localhost` (`WebhookAddress.checkSaved`: `webhook_address_not_public`).
    /// An IPv6 literal (`[::1]`) is not admitted, as the contract's pattern says. A host name
    /// is judged at each send, by every address it then resolves to; one that does not resolve,
    /// or a port out of range, is the receiver's problem: its deliveries fail, visibly.
    package static func url(_ text: String, allowPrivate: Bool) throws(WebhookError) -> String {
        guard text.count <= 2000, (try? Regex(urlPattern).wholeMatch(in: text)) != nil else { throw .invalidURL }
        try WebhookAddress.checkSaved(url: text, allowPrivate: allowPrivate)
        return text
    }

    /// The most entries a list of event types may have (the contract's `maxItems`), repeats included.
    package static let maximumEventTypes = 20

    /// Each type once, in the order given; unknown ones are refused (the contract's enum already
    /// does, this keeps the command line and tests honest too), and so is a list longer than the
    /// contract allows, even when its repeats would fold it shorter.
    package static func eventTypes(_ types: [String]) throws(WebhookError) -> [String] {
        guard types.count <= maximumEventTypes else {
            throw .invalidField("eventTypes", "At most \(maximumEventTypes) event types.")
        }
        var seen: [String] = []
        for type in types where !seen.contains(type) {
            guard eventTypes.contains(type) else { throw .invalidField("eventTypes", "Unknown event type '\(type.prefix(60))'.") }
            seen.append(type)
        }
        return seen
    }

    /// At most 500 characters counted as the contract's `maxLength` and the table's `length()`
    /// count them, in code points: a grapheme count let `नी` × 300 (600 code points) through to
    /// the table's check, a 500.
    package static func description(_ text: String) throws(WebhookError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.unicodeScalars.count <= 500 else { throw .invalidField("description", "A description is at most 500 characters.") }
        return trimmed
    }
}
