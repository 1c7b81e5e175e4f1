import HTTPTypes
import Hummingbird

/// Headers every answer of a kind must carry, set in one place (issue 41) because the generated
/// handlers cannot name them:
/// - `X-Content-Type-Options: nosniff` on everything, so an uploaded image or a text answer is
///   never run as something a browser guessed it to be;
/// - `Cache-Control: private, no-store` on an API answer to a signed-in caller (an order, its
///   receipt and pickup token, `/v1/me`, the export) unless the route chose its own: personal
///   data and the pickup credential stay out of every cache, shared or not;
/// - the console's content security and frame rules on the printable pick sheet
///   (`/v1/pick-lists/{id}.html`), a document that runs no script and is never framed;
/// - `Cache-Control: public` on the catalogue's images (issue 45), the same for everyone, and
///   `304 Not Modified` for any GET whose `If-None-Match` names the answer's `ETag`, so a shop
///   page's images are fetched once.
package struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    private typealias Names = SecurityHeaders

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[Names.noSniff] == nil { response.headers[Names.noSniff] = "nosniff" }
        let path = request.uri.path
        if request.method == .get, response.status == .ok, Self.isPublicImage(path) {
            response.headers[.cacheControl] = "public, max-age=3600"
        }
        if request.method == .get, response.status == .ok, let etag = response.headers[.eTag],
            let asked = request.headers[.ifNoneMatch],
            asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            var headers = response.headers
            headers[.contentLength] = nil
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        if path.hasPrefix("/v1/"), response.headers[.cacheControl] == nil,
            request.headers[.authorization] != nil || request.headers[.cookie] != nil
        {
            response.headers[.cacheControl] = "private, no-store"
        }
        if path.hasPrefix("/v1/pick-lists/"), path.hasSuffix(".html") {
            response.headers[Names.contentSecurityPolicy] = Names.sheetPolicy
            response.headers[Names.frameOptions] = "DENY"
        }
        return response
    }
}

extension ResponseHeadersMiddleware {
    /// `/v1/products/{id}/image` and `/v1/products/{id}/images/{n}`: the catalogue's public images.
    static func isPublicImage(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard parts.count >= 4, parts[0] == "v1", parts[1] == "products" else { return false }
        return (parts.count == 4 && parts[3] == "image") || (parts.count == 5 && parts[3] == "images")
    }
}

/// The security headers' names, and the pick sheet's policy (the console's sheet route sends it too).
package enum SecurityHeaders {
    package static let noSniff = HTTPField.Name("X-Content-Type-Options")!
    package static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    package static let frameOptions = HTTPField.Name("X-Frame-Options")!
    /// The sheet's own `<style>` and nothing else.
    package static let sheetPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
