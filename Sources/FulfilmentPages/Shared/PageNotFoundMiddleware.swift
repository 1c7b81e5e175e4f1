import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// An address under the pages' paths that no route serves (`/shop/prodcuts`, a link cut short
/// in a message) is a page saying so, with the way back to the shop or the console, never the
/// API's JSON error a person cannot read. The router's own "not found" (no route matched) is
/// the one turned into a page; a route's refusals are its own. The API's paths are untouched.
package struct PageNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    package let sessions: Sessions

    package init(sessions: Sessions) { self.sessions = sessions }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && request.method == .get {
            guard let back = Self.back(for: request.uri.path) else { throw error }
            let session = try? await ConsoleSession.resolve(request, sessions: sessions, logger: context.logger)
            return ConsolePage.message(
                "Not found", "There is no page at this address. It may have moved, or the link may be mistyped.", session: session ?? nil,
                status: .notFound, back: back)
        }
    }

    /// Where a lost visitor goes back to: the shop from its pages and the customer's orders, the
    /// start from the console's and the account's; nil for every other path (the API's).
    static func back(for path: String) -> (path: String, label: String)? {
        let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        switch first {
        case "shop", "orders": return ("/shop", "Back to the shop")
        case "console", "account": return ("/", "Back to the start")
        default: return nil
        }
    }
}
