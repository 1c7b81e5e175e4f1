/// How an attempt ended, as recorded.
package enum DeliveryOutcome: Sendable, Equatable {
    /// A 2xx in time.
    case succeeded(code: Int)
    /// Any other status (a 3xx included: redirects are not followed), with the start of its body.
    case rejected(code: Int, excerpt: String)
    /// No response: refused, reset, timed out, a bad URL.
    case unreachable(String)
}
