import Foundation
import Logging

/// Everything the service needs to start, resolved from options and the environment by
/// the `fulfilment` command (or built directly by tests).
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: ConnectionInfo
    public var migrationsDirectory: URL
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: ConnectionInfo,
        migrationsDirectory: URL = Migration.defaultDirectory,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.migrationsDirectory = migrationsDirectory
        self.logLevel = logLevel
    }
}
