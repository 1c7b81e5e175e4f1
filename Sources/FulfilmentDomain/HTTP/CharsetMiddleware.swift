import Hummingbird

/// Text says its encoding: a `text/plain` or `text/html` response without a charset (the
/// generated handlers send the bare media type) gets `; charset=utf-8`, so `×` and `—` in a
/// pick sheet arrive intact in clients that follow the header.
package struct CharsetMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let type = response.headers[.contentType], Self.needsCharset(type) {
            response.headers[.contentType] = type + "; charset=utf-8"
        }
        return response
    }

    package static func needsCharset(_ type: String) -> Bool {
        let lower = type.lowercased()
        guard lower.hasPrefix("text/plain") || lower.hasPrefix("text/html") else { return false }
        return !lower.contains("charset=")
    }
}
