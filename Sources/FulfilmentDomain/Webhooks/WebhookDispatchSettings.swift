import Foundation

/// How the dispatcher retries, leases and gives up (README, *Webhooks*), from the environment.
package struct WebhookDispatchSettings: Sendable {
    /// The pause after each failed attempt (`FULFILMENT_WEBHOOK_RETRY_SCHEDULE`, seconds,
    /// comma-separated; fractions allowed so tests can be quick). After the last, the delivery is
    /// `failed`. Each pause is stretched or shrunk by up to a fifth at random (jitter), so
    /// deliveries that failed together do not all come back in the same second.
    package var retrySchedule: [Duration] = WebhookDispatchSettings.defaultSchedule
    /// How long a claimed attempt is reserved for the instance that claimed it
    /// (`FULFILMENT_WEBHOOK_LEASE_SECONDS`, default 60): longer than a send can take, so no
    /// other instance sends it meanwhile, and short enough that a crash costs a minute.
    package var lease: Duration = .seconds(60)
    /// An endpoint whose every attempt has failed for this long is disabled
    /// (`FULFILMENT_WEBHOOK_DISABLE_AFTER_SECONDS`, default 432000: 5 days).
    package var disableAfter: Duration = .seconds(432_000)
    /// How often each instance looks for deliveries coming due, retries above all
    /// (`FULFILMENT_WEBHOOK_POLL_MS`, default 5000); new events wake it at once (`EventBus`).
    package var pollInterval: Duration = .milliseconds(5000)
    /// Whether this instance sends deliveries at all (`FULFILMENT_WEBHOOK_DISPATCH=off` turns it
    /// off: an instance kept for the API alone; the others send).
    package var sending = true
    /// A fault hook for the kill -9 test only (`FULFILMENT_WEBHOOK_RECORD_DELAY_MS`, default 0):
    /// a pause between receiving a response and recording it, so a test can kill the process in
    /// between and see the same `webhook-id` sent again. Never set it in production.
    package var recordDelay: Duration = .zero
    /// One deadline for each attempt: resolving the host, connecting, the response's head and
    /// the body read for `last_error` all within this long, however slowly bytes trickle in. A
    /// 2xx within it is a success; anything else, or nothing, a failure. Keep it well under `lease`.
    package var timeout: Duration = .seconds(15)
    /// The most attempts one instance has in flight at once, to all endpoints together.
    package var concurrency = 32
    /// The most attempts in flight to one endpoint, counted over every instance (the claim counts
    /// leased deliveries in the database): so a slow endpoint holds at most this many of an
    /// instance's `concurrency`, and never delays the others' deliveries.
    package var perEndpoint = 4
    /// The most of a response body read (for `last_error`); the rest is never read.
    package var responseLimit = 4096
    /// Whether webhooks may go to addresses that are not public: loopback, private, link-local
    /// and the like (`FULFILMENT_WEBHOOK_ALLOW_PRIVATE=1`, off by default; `WebhookAddress`). For a
    /// shop sending to its own network, and for tests with a local receiver.
    package var allowPrivate = false

    package static let defaultSchedule: [Duration] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map { .seconds($0) }

    package static func from(environment: [String: String]) -> WebhookDispatchSettings {
        var settings = WebhookDispatchSettings()
        if let text = environment["FULFILMENT_WEBHOOK_RETRY_SCHEDULE"], let schedule = schedule(text) { settings.retrySchedule = schedule }
        if let seconds = environment["FULFILMENT_WEBHOOK_LEASE_SECONDS"].flatMap(Int.init), seconds >= 1 {
            settings.lease = .seconds(seconds)
        }
        if let seconds = environment["FULFILMENT_WEBHOOK_DISABLE_AFTER_SECONDS"].flatMap(Int.init), seconds >= 0 {
            settings.disableAfter = .seconds(seconds)
        }
        if let dispatch = environment["FULFILMENT_WEBHOOK_DISPATCH"]?.lowercased(), ["off", "0", "false", "no"].contains(dispatch) {
            settings.sending = false
        }
        if let ms = environment["FULFILMENT_WEBHOOK_POLL_MS"].flatMap(Int.init) { settings.pollInterval = .milliseconds(min(max(ms, 10), 60_000)) }
        if let allow = environment["FULFILMENT_WEBHOOK_ALLOW_PRIVATE"]?.lowercased(), ["1", "on", "true", "yes"].contains(allow) {
            settings.allowPrivate = true
        }
        if let ms = environment["FULFILMENT_WEBHOOK_RECORD_DELAY_MS"].flatMap(Int.init), ms >= 0 { settings.recordDelay = .milliseconds(ms) }
        return settings
    }

    /// `5,300,1800` as pauses; nil (the default is kept) when any entry is not a number from 0
    /// to a week.
    package static func schedule(_ text: String) -> [Duration]? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let seconds = parts.compactMap(Double.init).filter { (0...604_800).contains($0) }
        guard !parts.isEmpty, seconds.count == parts.count else { return nil }
        return seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    /// The pause after failed attempt number `attempt` (1-based), with jitter; nil when the
    /// schedule is exhausted and the delivery has failed for good.
    package func pause(afterAttempt attempt: Int) -> Duration? {
        guard attempt >= 1, attempt <= retrySchedule.count else { return nil }
        return retrySchedule[attempt - 1] * Double.random(in: 0.8...1.2)
    }
}

extension Duration {
    /// Seconds as a Double, for binding intervals into SQL.
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
