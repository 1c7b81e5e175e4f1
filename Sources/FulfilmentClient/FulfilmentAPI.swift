import Foundation
import HTTPTypes
// Re-exported: an app needs the runtime's `HTTPBody` and `ClientError` with the generated code.
@_exported import OpenAPIRuntime
import OpenAPIURLSession

/// The shops' apps' way into the service (issue 28): the contract's generated `Client` on
/// URLSession (iOS, macOS, Linux), with what the contract cannot say added by hand: the bearer
/// token on every request, the error body as one Swift error type (``FulfilmentError``),
/// `Retry-After` waited out (``RetryPolicy``), checkout under an `Idempotency-Key`
/// (``checkout(_:idempotencyKey:resends:)``) and live events that resume (``orderEvents(_:after:)``).
///
///     let api = FulfilmentAPI(baseURL: URL(string: "https://shop.example")!)
///     let session = try await api.client.login(body: .json(.init(email: e, password: p))).ok.body.json
///     api.token = session.token
///     let products = try await api.client.searchProducts(query: .init(q: "rice")).ok.body.json.items
public final class FulfilmentAPI: Sendable {
    /// The generated client: one method per operation of the contract.
    public let client: Client
    private let bearer: BearerToken

    /// The session token sent as `Authorization: Bearer` (nil: none), set after signing in.
    public var token: String? {
        get { bearer.value }
        set { bearer.value = newValue }
    }

    /// - Parameters:
    ///   - transport: URLSession's by default; on Linux give `AsyncHTTPClientTransport` to stream live events.
    ///   - retry: when a `429` or `503` is waited out and sent again (``RetryPolicy``).
    public init(
        baseURL: URL, token: String? = nil, transport: any ClientTransport = URLSessionTransport(), retry: RetryPolicy = RetryPolicy()
    ) {
        bearer = BearerToken(token)
        client = Client(
            serverURL: baseURL, transport: transport,
            middlewares: [BearerMiddleware(token: bearer), RetryMiddleware(policy: retry), ErrorBodyMiddleware()])
    }

    /// Checks the cart out: one attempt, under one `Idempotency-Key`.
    ///
    /// When the answer is lost (the connection dropped after the request left), the same request
    /// goes again with the same key, up to `resends` times: the service answers the order it
    /// made the first time, never a second one. A double tap in the app should reuse the key of
    /// the attempt in flight; a new attempt (after changing the cart) takes a new one.
    public func checkout(
        _ request: Components.Schemas.CheckoutRequest, idempotencyKey: String = UUID().uuidString, resends: Int = 2
    ) async throws -> Components.Schemas.Order {
        var tries = 0
        while true {
            do {
                let output = try await client.checkout(headers: .init(idempotencyKey: idempotencyKey), body: .json(request))
                if case .ok(let again) = output { return try again.body.json }
                return try output.created.body.json
            } catch let error as ClientError where !(error.underlyingError is FulfilmentError) && tries < resends {
                tries += 1
            }
        }
    }
}

/// The token, shared by the middleware and the client (set from any task).
final class BearerToken: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    init(_ value: String?) { stored = value }
    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Adds `Authorization: Bearer <token>` to every request while a token is set.
struct BearerMiddleware: ClientMiddleware {
    let token: BearerToken

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let value = token.value { request.headerFields[.authorization] = "Bearer \(value)" }
        return try await next(request, body, baseURL)
    }
}
