import Foundation
import HTTPTypes
import OpenAPIRuntime

/// When to send a refused request again by itself: the service answers `429` (too many
/// requests) and `503` (the database is away, busy or full) with `Retry-After`, and an app
/// should wait that long and try again rather than show an error for a moment's trouble.
public struct RetryPolicy: Sendable {
    /// How many times one request is sent again (0: never).
    public var attempts: Int
    /// A `Retry-After` longer than this is not waited out: the error is thrown at once, for the
    /// app to say so.
    public var longestWait: Duration

    public init(attempts: Int = 3, longestWait: Duration = .seconds(30)) {
        self.attempts = attempts
        self.longestWait = longestWait
    }

    public static let never = RetryPolicy(attempts: 0)
}

/// Waits out `Retry-After` and sends the request again, for what is safe to send twice:
/// - `429`: the service refused before doing anything, so any request;
/// - `503`: a request whose repeat cannot do the work twice: `GET`, `HEAD`, `PUT`, `DELETE`, or
///   one that carries an `Idempotency-Key` (checkout).
/// A body is sent again only when it can be read twice (the generated JSON bodies can).
struct RetryMiddleware: ClientMiddleware {
    let policy: RetryPolicy

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var attempt = 0
        while true {
            do {
                return try await next(request, body, baseURL)
            } catch let error as ClientError {
                // The inner middleware's refusal, as the generated client wraps every error.
                guard let refusal = error.underlyingError as? FulfilmentError, attempt < policy.attempts,
                    let wait = wait(after: refusal, request: request, body: body)
                else { throw error }
                attempt += 1
                try await Task.sleep(for: wait)
            }
        }
    }

    func wait(after refusal: FulfilmentError, request: HTTPRequest, body: HTTPBody?) -> Duration? {
        guard refusal.status == 429 || refusal.status == 503, let seconds = refusal.retryAfterSeconds else { return nil }
        let wait = Duration.seconds(max(seconds, 0))
        guard wait <= policy.longestWait else { return nil }
        if let body, body.iterationBehavior != .multiple { return nil }
        if refusal.status == 503 && !Self.safeToRepeat(request) { return nil }
        return wait
    }

    static func safeToRepeat(_ request: HTTPRequest) -> Bool {
        [.get, .head, .put, .delete, .options].contains(request.method)
            || request.headerFields[HTTPField.Name("Idempotency-Key")!] != nil
    }
}
