import HTTPTypes
import Logging
import OpenAPIRuntime

/// Enforces `AccessPolicy` for every OpenAPI operation: resolves the bearer token to an
/// `Identity` (401 when missing or ended; 401 `session_expired` when idle or too old),
/// checks the role (403), checks a `storeId` path parameter against the caller's store for
/// staff routes (403), and makes the identity available to the handler as `Identity.current`.
/// On the routes in `AccessPolicy.resolvedInStatement` it passes the token on instead
/// (`PresentedSession`), and the handler's first statement resolves and the handler admits it
/// by the same rules: one round trip fewer where every one counts.
package struct AccessMiddleware: ServerMiddleware {
    package let database: Database
    /// Idle and absolute session lifetimes, enforced where the token is resolved.
    package let sessionLifetime: SessionLifetime

    /// Resolves the bearer token (built once, with the middleware).
    private let sessions: Sessions

    package init(database: Database, sessionLifetime: SessionLifetime) {
        self.database = database
        self.sessionLifetime = sessionLifetime
        self.sessions = Sessions(database: database, lifetime: sessionLifetime)
    }

    package func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let scope = RequestScope.current
        guard let access = AccessPolicy.operations[operationID] else {
            scope.logger.error("operation has no access policy; refusing", metadata: ["operation": "\(operationID)"])
            throw AccessError.forbidden
        }
        if access == .anyone {
            // A public read that shows its author and moderators more (issue 31: hidden content,
            // drafts) knows a signed-in caller; a token that admits nobody reads as anonymous.
            if AccessPolicy.publicReadsKnowingCaller.contains(operationID), let token = scope.bearerToken,
                let identity = try? await admit(presented(token, operationID, metadata), logger: scope.logger)
            {
                return try await Identity.$current.withValue(identity) { try await next(request, body, metadata) }
            }
            return try await next(request, body, metadata)
        }
        guard let token = scope.bearerToken else { throw AccessError.unauthenticated }
        let session = presented(token, operationID, metadata)
        if AccessPolicy.resolvedInStatement.contains(operationID) {
            do {
                return try await PresentedSession.$current.withValue(session) {
                    try await next(request, body, metadata)
                }
            } catch  where !session.admission.isGiven {
                // Refused before its statement said who is asking: that verdict comes first.
                _ = try await admit(session, logger: scope.logger)
                throw error
            }
        }
        let identity = try await admit(session, logger: scope.logger)
        return try await Identity.$current.withValue(identity) {
            try await next(request, body, metadata)
        }
    }

    private func presented(_ token: String, _ operationID: String, _ metadata: ServerRequestMetadata) -> PresentedSession {
        PresentedSession(
            tokenHash: SessionToken.hash(token), lifetime: sessionLifetime, operationID: operationID,
            storeInPath: metadata.pathParameters["storeId"].map(String.init))
    }

    private func admit(_ session: PresentedSession, logger: Logger) async throws -> Identity {
        try session.admit(
            try await sessions.lookUp(tokenHash: session.tokenHash, logger: logger))
    }
}
