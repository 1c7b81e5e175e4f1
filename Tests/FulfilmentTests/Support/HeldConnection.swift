@testable import FulfilmentDomain

/// One database connection of the test's own, held across statements: to keep a transaction
/// (and its locks) open while requests race it, or to stand for a racer on a connection apart.
final class HeldConnection: @unchecked Sendable {
    private let connection: LibPQConnection

    init(_ info: ConnectionInfo) throws { connection = try LibPQConnection(info) }

    @discardableResult
    func run(_ query: String, _ parameters: [String] = []) async throws -> [[String?]] {
        try await Migrator.offloaded { try self.connection.execute(query, parameters: parameters) }
    }
}
