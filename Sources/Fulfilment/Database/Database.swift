import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The service's handle on PostgreSQL: a pooled `PostgresNIO` client (run as a service)
/// plus the connection description it came from.
public struct Database: Sendable {
    public let client: PostgresClient
    public let connection: ConnectionInfo

    public init(connection: ConnectionInfo, logger: Logger) throws {
        self.connection = connection
        self.client = PostgresClient(configuration: try Self.configuration(for: connection), backgroundLogger: logger)
    }

    /// Maps libpq's resolved options onto PostgresNIO's configuration, `sslmode` included.
    static func configuration(for info: ConnectionInfo) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socket = info.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: info.user, password: info.password, database: info.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch info.sslMode {
            case "disable":
                tls = .disable
            case "allow", "prefer":
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                tls = .prefer(settings)
            case "require":
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                tls = .require(settings)
            default:  // verify-ca, verify-full
                var settings = TLSConfiguration.makeClientConfiguration()
                if let root = info.options["sslrootcert"] {
                    settings.trustRoots = .file(root)
                }
                if info.sslMode == "verify-ca" { settings.certificateVerification = .noHostnameVerification }
                tls = .require(settings)
            }
            configuration = .init(
                host: info.host, port: info.port, username: info.user, password: info.password,
                database: info.database, tls: tls)
        }
        configuration.options.maximumConnections = 40
        return configuration
    }

    /// Runs `body` in one transaction and rethrows the body's own error (not PostgresNIO's
    /// wrapper), so domain errors thrown inside reach the HTTP error mapping unchanged.
    public func transaction<T: Sendable>(
        logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError { throw closureError }
            throw error
        }
    }
}
