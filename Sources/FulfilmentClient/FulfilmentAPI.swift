import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// The shops' apps' way into the service (issue 28): the contract's generated `Client` on
/// URLSession (iOS, macOS, Linux), with what the contract cannot say added by hand: the bearer
/// token on every request and the error body as one Swift error type (``FulfilmentError``).
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

    public init(baseURL: URL, token: String? = nil, transport: any ClientTransport = URLSessionTransport()) {
        bearer = BearerToken(token)
        client = Client(serverURL: baseURL, transport: transport, middlewares: [BearerMiddleware(token: bearer), ErrorBodyMiddleware()])
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

/// The service's one error shape, `{"error": {"code", "message", "details"}}`, as a Swift error:
/// any answer of 400 or more that carries it is thrown as this, with its status and, on `429` or
/// `503`, its `Retry-After`.
public struct FulfilmentError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    /// The details, as JSON text (their shape depends on the code; the contract lists them).
    public var details: String?
    public var retryAfterSeconds: Int?

    public var description: String { "\(status) \(code): \(message)" }
}

/// Turns an error answer into ``FulfilmentError`` before the generated code reads it.
struct ErrorBodyMiddleware: ClientMiddleware {
    static let maximumBytes = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400, let responseBody else { return (response, responseBody) }
        let bytes = try await Data(collecting: responseBody, upTo: Self.maximumBytes)
        struct Envelope: Decodable {
            struct Body: Decodable {
                var code: String
                var message: String
            }
            var error: Body
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: bytes) else { return (response, HTTPBody(bytes)) }
        var details: String?
        if let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let error = object["error"] as? [String: Any], let value = error["details"],
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        {
            details = String(decoding: data, as: UTF8.self)
        }
        throw FulfilmentError(
            status: response.status.code, code: envelope.error.code, message: envelope.error.message, details: details,
            retryAfterSeconds: response.headerFields[.retryAfter].flatMap { Int($0) })
    }
}
