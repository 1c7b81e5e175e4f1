import Logging

/// Who a presented token belongs to: the one lookup behind the API's bearer token
/// (`AccessMiddleware`) and the console's cookie (`ConsoleSession`), both lifetimes enforced
/// with the database's clock (`SessionQueries.lookUp`).
package struct Sessions: Sendable {
    package let database: Database
    /// How long a session lasts idle and in all.
    package let lifetime: SessionLifetime

    /// The caller a token's hash names, or why there is none.
    package func lookUp(tokenHash: [UInt8], logger: Logger) async throws -> SessionLookup {
        try await SessionQueries.lookUp(tokenHash: tokenHash, lifetime: lifetime, on: database.client, logger: logger)
    }
}
