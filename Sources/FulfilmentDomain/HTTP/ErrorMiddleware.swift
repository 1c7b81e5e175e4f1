import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime

/// Turns every error that escapes a route into the JSON error envelope.
///
/// This is the single place where errors meet HTTP: domain errors carry their own
/// `APIError`; the OpenAPI runtime's request-parsing failures become 400/422 naming the
/// field; anything unexpected is logged and answered with a bare 500 that leaks nothing.
package struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error)
            if apiError.status == .internalServerError {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(ErrorLog.describe(error))"])
            }
            var headers = apiError.headers
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(
                status: apiError.status, headers: headers,
                body: .init(byteBuffer: ByteBuffer(bytes: apiError.body)))
        }
    }

    package static func apiError(for error: any Error) -> APIError {
        switch error {
        case let convertible as any APIErrorConvertible:
            return convertible.apiError
        case let serverError as ServerError:
            if let convertible = serverError.underlyingError as? any APIErrorConvertible {
                return convertible.apiError
            }
            if serverError.underlyingError is NIOTooManyBytesError { return tooLarge }
            if let answer = databaseAnswer(serverError.underlyingError) { return answer }
            if let header = serverError.missingHeader {
                let code = "missing_" + header.lowercased().replacingOccurrences(of: "-", with: "_")
                return APIError(.badRequest, code, "Send the \(header) header with this request.", details: ["header": .string(header)])
            }
            if let decoding = serverError.underlyingError as? DecodingError {
                return serverError.carriesBody ? apiError(for: decoding) : parameterError(for: decoding)
            }
            if (400..<500).contains(serverError.httpStatus.code) {
                return APIError(
                    serverError.httpStatus, code(for: serverError.httpStatus), requestProblem(serverError))
            }
            return .internal
        case is NIOTooManyBytesError:
            return tooLarge
        case let httpError as HTTPError:
            if (400..<500).contains(httpError.status.code) {
                return APIError(httpError.status, code(for: httpError.status), httpError.body ?? httpError.status.reasonPhrase)
            }
            return .internal
        default:
            return databaseAnswer(error) ?? .internal
        }
    }

    /// What the database's own trouble, or its refusal of a client's value, is to the client,
    /// whether the runtime wrapped the error or not; nil for anything else. One list, so a new
    /// state is mapped once for both paths.
    package static func databaseAnswer(_ error: any Error) -> APIError? {
        if error.isFailoverClass { return DatabaseUnavailable().apiError }
        if error.isTransientConflict { return DatabaseBusy().apiError }
        if error.isStorageFull { return StorageFull().apiError }
        if error.isDatabaseStrained { return DatabaseBusy().apiError }
        return error.clientValueError
    }

    /// A body a reader stopped at its limit (`BodyLimit` refuses first; this is the backstop for
    /// any reader with a tighter limit of its own).
    package static var tooLarge: APIError {
        APIError(.contentTooLarge, "payload_too_large", "The request body is larger than this route takes.")
    }

    /// A request body that is not JSON is a 400; JSON of the wrong shape is a 422 naming the field.
    package static func apiError(for error: DecodingError) -> APIError {
        func path(_ context: DecodingError.Context, appending key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context, appending: key)
            return APIError(.unprocessableContent, "missing_field", "The field '\(field)' is required.", details: ["field": .string(field)])
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = path(context)
            return APIError(.unprocessableContent, "invalid_field", "The field '\(field)' has the wrong type.", details: ["field": .string(field)])
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return APIError(.badRequest, "malformed_json", "The request body is not valid JSON.")
        case .dataCorrupted(let context):
            let field = path(context)
            return APIError(.unprocessableContent, "invalid_field", "The field '\(field)' has an invalid value.", details: ["field": .string(field)])
        @unknown default:
            return APIError(.badRequest, "bad_request", "The request could not be read.")
        }
    }

    /// A query or path parameter the runtime could not read (`?status=AAA`, `?limit=ten`): a 422,
    /// not the 400 of a broken body. The runtime's error does not name the parameter, its
    /// description names the value.
    package static func parameterError(for error: DecodingError) -> APIError {
        let context: DecodingError.Context? =
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context): context
            case .keyNotFound(_, let context): context
            @unknown default: nil
            }
        return APIError(
            .unprocessableContent, "invalid_parameter",
            "A query or path parameter has a value this route does not take\(context.map { ": \($0.debugDescription)" } ?? ".")")
    }

    package static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 406: "not_acceptable"
        case 413: "payload_too_large"
        case 415: "unsupported_media_type"
        case 422: "unprocessable"
        default: status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
        }
    }

    /// The runtime's own sentence for a request it could not read ("Missing required request body").
    private static func requestProblem(_ error: ServerError) -> String {
        String(describing: error.underlyingError)
    }
}

extension ServerError {
    /// Whether the request is one that carries a body (every such route reads JSON), so a
    /// decoding failure is the body's; a GET's or DELETE's can only be a parameter's.
    package var carriesBody: Bool {
        ![.get, .head, .delete].contains(request.method)
    }

    /// The name of a required header the request came without (`Idempotency-Key` on a checkout),
    /// as the runtime words it.
    package var missingHeader: String? {
        let text = causeDescription
        guard text.contains("header field named"), let open = text.firstIndex(where: { $0 == "'" || $0 == ":" }) else { return nil }
        let name =
            text[text.index(after: open)...].trimmingCharacters(in: CharacterSet(charactersIn: "' .").union(.whitespaces))
            .components(separatedBy: "'").first ?? ""
        return name.isEmpty ? nil : name
    }
}
