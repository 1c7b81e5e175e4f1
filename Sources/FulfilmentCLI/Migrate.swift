import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending migrations from sql/ and exit.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = makeLogger()
        try await database.withDatabase(logger: logger) { connection in
            let applied = try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory))
                .migrate(logger: logger)
            print(applied.isEmpty ? "Nothing to apply." : "Applied: \(applied.joined(separator: ", "))")
        }
    }
}
