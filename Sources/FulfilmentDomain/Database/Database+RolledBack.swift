import Logging
import PostgresNIO

extension Database {
    /// `body` in a transaction that is always rolled back, whatever it did: a dry run that sees
    /// its own writes (the import's preview COPYs into a temporary table) and leaves nothing.
    package func rolledBack<T: Sendable>(logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await client.leasing { connection in
            try await connection.run("BEGIN", logger: logger)
            let value: T
            do {
                value = try await body(connection)
            } catch {
                do { try await connection.run("ROLLBACK", logger: logger) } catch { connection.closeWithoutWaiting() }
                throw error
            }
            do { try await connection.run("ROLLBACK", logger: logger) } catch { connection.closeWithoutWaiting() }
            return value
        }
    }
}
