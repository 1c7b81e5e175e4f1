import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// What the current request carries into handlers that the OpenAPI layer does not pass:
/// its id, a logger tagged with that id, and the bearer token, if any.
///
/// Set by `RequestScopeMiddleware` as a task-local, so generated OpenAPI handlers (which
/// see no Hummingbird context) log with the request id and can authenticate.
package struct RequestScope: Sendable {
    package var requestID: String
    package var logger: Logger
    package var bearerToken: String?

    @TaskLocal package static var current = RequestScope(requestID: "-", logger: Logger(label: "fulfilment"), bearerToken: nil)
}

/// Echoes a well-formed `X-Request-Id` or makes one, tags the logger with it, and logs one
/// line per request (method, path without query, status, duration, statements sent to
/// PostgreSQL). Never logs headers or bodies, which may carry passwords or tokens.
package struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    package static var header: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let requestID = request.headers[Self.header].flatMap(Self.acceptable) ?? UUID().uuidString.lowercased()
        var context = context
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let scope = RequestScope(requestID: requestID, logger: context.logger, bearerToken: Self.bearerToken(request.headers))
        let started = ContinuousClock.now
        let statements = StatementTally()
        var response = try await RequestScope.$current.withValue(scope) {
            try await StatementTally.$current.withValue(statements) { try await next(request, context) }
        }
        response.headers[Self.header] = requestID
        let elapsed = ContinuousClock.now - started
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "ms": "\(elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000)",
                "statements": "\(statements.value)",
            ])
        return response
    }

    /// Client-supplied ids are echoed only when short and plain, so they cannot forge log lines.
    package static func acceptable(_ value: String) -> String? {
        guard (1...128).contains(value.count),
            value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else { return nil }
        return value
    }

    package static func bearerToken(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // HTTP's optional whitespace is spaces and tabs; trimmed by hand, as Foundation's
        // CharacterSet trimming cost as much as the request's log line (perf, issue 15).
        let token = parts[1]
        guard let first = token.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = token.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return nil }
        return String(token[first...last])
    }
}
