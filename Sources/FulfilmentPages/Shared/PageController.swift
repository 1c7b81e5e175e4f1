import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import Logging

/// What the two page controllers (`ConsoleController` for staff, `ShopController` for
/// customers) share: the domain ``Services`` they call (never the API's handler type), and the
/// one front door every page passes through (``page(_:_:operation:store:_:)``).
///
/// Every page stands for an API operation and passes the same `AccessPolicy.authorize` check
/// with it, so a page is refused exactly when its API call would be; every action calls the
/// same domain service as that operation's handler. Failures become a page with the service's
/// own sentence, never JSON.
protocol PageController: Sendable {
    var services: Services { get }
    /// Whether cookies are marked `Secure` (the service is reached over TLS).
    var secureCookies: Bool { get }
}

/// What a page handler is given once its access check has passed.
struct PageVisit: Sendable {
    var request: Request
    var session: ConsoleSession
    var form: ConsoleForm
    var logger: Logger
    var identity: Identity { session.identity }
}

extension PageController {
    var database: Database { services.database }
    var accounts: Accounts { services.accounts }

    /// A manager's form on one of their store's pages (stock, sales, coupons): the operation's
    /// check for their own store, then `body`, whose sentence, or the refusal's message with its
    /// status, is shown above the page as `render` draws it again. A server error is not a
    /// refusal: it is thrown, as on every page.
    func storeForm(
        _ request: Request, _ context: AppRequestContext, operation: String,
        render: @escaping @Sendable (PageVisit, Notice, HTTPResponse.Status) async throws -> Response,
        _ body: @escaping @Sendable (PageVisit, StoreScope) async throws -> String
    ) async throws -> Response {
        try await page(request, context, operation: operation, store: { $0.storeID }) { visit in
            let scope = try StoreScope(staff: visit.identity)
            do {
                return try await render(visit, Notice(ok: true, text: try await body(visit, scope)), .ok)
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await render(visit, Notice(ok: false, text: refused.message), refused.status)
            }
        }
    }

    /// Runs `body` for a page standing for `operation`: resolves the cookie session, applies the
    /// operation's access rule (with the store the page is about, for store-scoped operations),
    /// and for a POST checks the form's anti-forgery token first (its origin was checked by
    /// ``SameOriginMiddleware`` before). A signed-out visitor is sent to sign in; a refusal is a
    /// page with a message.
    func page(
        _ request: Request, _ context: AppRequestContext, operation: String, store: (@Sendable (Identity) -> StoreID?)? = nil,
        _ body: @Sendable (PageVisit) async throws -> Response
    ) async throws -> Response {
        let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
        return try await page(request, context, operation: operation, session: session, store: store, body)
    }

    /// ``page(_:_:operation:store:_:)`` for a caller already resolved (the shop's front door,
    /// which looks the session up to tell a customer from a visitor): one lookup per request.
    func page(
        _ request: Request, _ context: AppRequestContext, operation: String, session: ConsoleSession?,
        store: (@Sendable (Identity) -> StoreID?)? = nil, _ body: @Sendable (PageVisit) async throws -> Response
    ) async throws -> Response {
        let logger = context.logger
        let isPost = request.method == .post
        do {
            try AccessPolicy.authorize(
                operation, identity: session?.identity, storeInPath: session.flatMap { store?($0.identity)?.description })
        } catch AccessError.unauthenticated {
            return ConsolePage.redirect("/")
        } catch {
            return ConsolePage.message(
                "Not for you", "Your account is not allowed to see this page.", session: session, status: .forbidden)
        }
        guard let session else { return ConsolePage.redirect("/") }
        var form = ConsoleForm(fields: [:])
        if isPost {
            do {
                form = try await ConsoleForm.read(request)
            } catch let refused as APIError {
                return ConsolePage.message("That did not work", refused.message, session: session, status: refused.status)
            }
            guard session.accepts(form) else {
                return ConsolePage.message(
                    "Refused", "This form has expired or did not come from this console. Go back, reload and try again.",
                    session: session, status: .forbidden)
            }
        }
        let visit = PageVisit(request: request, session: session, form: form, logger: logger)
        // Times on a store's pages are on the store's clock (its calendar's zone), named.
        let zone = try await session.identity.storeID.asyncMap { try await services.orders.timeZone(ofStore: $0, logger: logger) } ?? nil
        do {
            return try await TimeText.$zone.withValue(zone) {
                try await Identity.$current.withValue(session.identity) { try await body(visit) }
            }
        } catch {
            var logger = logger
            logger[metadataKey: "path"] = "\(request.uri.path)"
            return refusal(error, session: session, logger: logger)
        }
    }

    /// What a form's refusal is, as the API would answer it (status and sentence), for the page to
    /// show above itself; an error of the service's own (a 500) is rethrown, to be logged and
    /// shown as one, never passed off as the customer's mistake.
    static func clientRefusal(_ error: any Error) throws -> APIError {
        let refused = ErrorMiddleware<AppRequestContext>.apiError(for: error)
        guard refused.status != .internalServerError else { throw error }
        return refused
    }

    /// A domain error as a page: the API's status and sentence, in HTML.
    func refusal(_ error: any Error, session: ConsoleSession?, logger: Logger) -> Response {
        let apiError = ErrorMiddleware<AppRequestContext>.apiError(for: error)
        if apiError.status == .internalServerError {
            logger.error("console page failed", metadata: ["error": "\(ErrorLog.describe(error))"])
        }
        return ConsolePage.message("That did not work", apiError.message, session: session, status: apiError.status)
    }
}
