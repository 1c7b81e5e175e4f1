import HTTPTypes
import Logging
import OpenAPIRuntime

/// Enforces `AccessPolicy` for every OpenAPI operation: resolves the bearer token to an
/// `Identity` (401 when missing or ended; 401 `session_expired` when idle or too old),
/// checks the role (403), checks a `storeId` path parameter against the caller's store for
/// staff routes (403), and makes the identity available to the handler as `Identity.current`.
struct AccessMiddleware: ServerMiddleware {
    let database: Database
    /// Idle and absolute session lifetimes, enforced where the token is resolved.
    let sessionLifetime: SessionLifetime

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let scope = RequestScope.current
        guard let access = AccessPolicy.operations[operationID] else {
            scope.logger.error("operation has no access policy; refusing", metadata: ["operation": "\(operationID)"])
            throw AccessError.forbidden
        }
        if access == .anyone {
            return try await next(request, body, metadata)
        }
        guard let token = scope.bearerToken else { throw AccessError.unauthenticated }
        let identity: Identity
        switch try await SessionQueries.lookUp(
            tokenHash: SessionToken.hash(token), lifetime: sessionLifetime, on: database.client, logger: scope.logger)
        {
        case .live(let live): identity = live
        case .expired: throw AccessError.sessionExpired
        case .unknown: throw AccessError.unauthenticated
        }
        try AccessPolicy.authorize(operationID, identity: identity, storeInPath: metadata.pathParameters["storeId"].map(String.init))
        return try await Identity.$current.withValue(identity) {
            try await next(request, body, metadata)
        }
    }
}
