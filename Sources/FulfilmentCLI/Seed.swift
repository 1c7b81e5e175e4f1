import ArgumentParser
import Fulfilment
import Foundation
import Logging

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Load data: --demo loads the demo store (idempotent).")

    @Flag(help: "Load the demo store, its aisles and catalogue.")
    var demo = false

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard demo else { throw ValidationError("Say what to load: --demo.") }
    }

    func run() async throws {
        let logger = makeLogger()
        try await database.withDatabase(logger: logger) { connection in
            try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory))
                .migrate(logger: logger)
            try await seedDemo(connection: connection, logger: logger)
        }
    }
}

/// Loads the demo store through a short-lived client and prints what it did.
func seedDemo(connection: ConnectionInfo, logger: Logger) async throws {
    let database = try Database(connection: connection, logger: logger)
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { await database.client.run() }
        defer { group.cancelAll() }
        let summary = try await DemoSeed.load(into: database, logger: logger)
        print(summary.created ? "Loaded the demo store (\(summary.products) products)." : "The demo store is already loaded.")
    }
}
