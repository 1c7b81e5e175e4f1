import Foundation
import HTTPTypes
import OpenAPIRuntime

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
