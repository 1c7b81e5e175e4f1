import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

@main
struct FulfilmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fulfilment",
        abstract: "Click-and-collect order fulfilment: the service and its tools.",
        subcommands: [
            Serve.self, Migrate.self, Seed.self, Postgres.self, Keys.self, UserCommand.self, IdentityProviderCommand.self, StoreCommand.self,
            Import.self, BackupCommand.self,
            RestoreCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// Environment fallbacks: every option can also be set by an environment variable.
func environment(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}

/// Prints a line for the person at the terminal and flushes it at once, so the URL and demo
/// credentials show even when standard output is a pipe (as under `make run`).
func announce(_ line: String) {
    print(line)
    fflush(nil)
}

func makeLogger(level: Logger.Level = .info) -> Logger {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    return Logger(label: "fulfilment")
}
