import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// `fulfilment backup --to FILE`: a consistent pg_dump archive of the embedded or external
/// database, written under a temporary name and renamed into place when complete.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a consistent backup (pg_dump custom format) of the database to a file.")

    @OptionGroup var database: DatabaseOptions
    @Option(name: .customLong("to"), help: "The backup file to write (replaced only once the new one is complete).")
    var file: String

    func run() async throws {
        try await database.withDatabase(logger: makeLogger(level: .warning)) { connection in
            let bytes = try Backup.dump(connection, to: URL(fileURLWithPath: file))
            print("Wrote \(file) (\(bytes) bytes).")
        }
    }
}

/// `fulfilment restore FILE`: into an empty data folder (embedded) or an empty database.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Restore a backup into an empty data folder or empty database (a non-empty one is refused).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "A file written by `fulfilment backup`.")
    var file: String

    func run() async throws {
        try await database.withDatabase(logger: makeLogger(level: .warning)) { connection in
            try Backup.restore(URL(fileURLWithPath: file), into: connection)
            print("Restored \(file) into \(connection.redacted).")
        }
    }
}
