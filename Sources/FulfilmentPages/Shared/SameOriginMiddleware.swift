import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The one same-origin check of the pages: a form posted to the console or the shop from
/// another site is refused before its handler runs, signed in or not. The anti-forgery token
/// (`ConsoleSession.accepts`) protects a signed-in form too; this is what protects the forms
/// that have no session yet (sign-in, sign-up, linking a provider).
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A mail program's one-click unsubscribe (RFC 8058) posts from no page at all; its link's
        // token is its proof, and all it can do is stop optional messages.
        guard request.method == .post, request.uri.path != "/unsubscribe", !Self.isSameOrigin(request) else {
            return try await next(request, context)
        }
        return ConsolePage.message("Refused", "This form was sent from another site.", session: nil, status: .forbidden)
    }

    /// The browser's own word on where a form came from: a POST whose `Origin` names another
    /// site (or whose `Sec-Fetch-Site` says cross-site) is refused.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], !["same-origin", "none"].contains(site) {
            return false
        }
        guard let origin = request.headers[HTTPField.Name("Origin")!] else { return true }
        guard let host = request.head.authority ?? request.headers[HTTPField.Name("Host")!],
            let url = URL(string: origin), let originHost = url.host
        else { return false }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() == host.lowercased()
    }
}
