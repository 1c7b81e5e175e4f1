import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// Manage the embedded cluster by hand; `make test` uses this for its throwaway database.
struct Postgres: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres",
        abstract: "Start or stop the embedded PostgreSQL cluster under --data-dir.",
        subcommands: [Start.self, Stop.self])

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create (if needed) and start the cluster; print its connection string, password included.")
        @Option(name: .customLong("data-dir"), help: "Folder of the cluster.")
        var dataDir: String = ".fulfilment/postgres"
        @Flag(
            name: .customLong("unsafe-fast"),
            help: "Turn off fsync, full_page_writes and synchronous_commit: for a throwaway test cluster only (a crash can lose commits).")
        var unsafeFast = false

        func run() async throws {
            let embedded = try EmbeddedPostgres(dataDirectory: URL(fileURLWithPath: dataDir), logger: makeLogger(level: .warning))
            try embedded.start(durability: unsafeFast ? .unsafeFast : .durable)
            let info = embedded.connectionInfo
            // The password is printed for the caller to keep (`make test` exports it as
            // TEST_DATABASE_URL); it is hexadecimal, so it needs no quoting. Never logged.
            print("host=\(info.host) port=\(info.port) user=\(info.user) password=\(info.password ?? "") dbname=\(info.database) sslmode=disable")
        }
    }

    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the cluster.")
        @Option(name: .customLong("data-dir"), help: "Folder of the cluster.")
        var dataDir: String = ".fulfilment/postgres"

        func run() async throws {
            try EmbeddedPostgres(dataDirectory: URL(fileURLWithPath: dataDir), logger: makeLogger(level: .warning)).stop()
        }
    }
}
