import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// `fulfilment import products --store S file.csv`.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load data from files.", subcommands: [ImportProducts.self])
}

struct ImportProducts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Load or update products with their stock and location at one store, from CSV, in one transaction.",
        discussion: """
            Columns (header row, any order): \(CatalogueImport.columns.joined(separator: ", ")).
            Required: sku, name, price (minor units, the store's currency), on_hand. Products are matched by SKU.
            Any bad row writes nothing; every bad row is reported with its line number.
            """)

    @Option(help: "The store: its code (e.g. QC-KGN) or id.")
    var store: String

    @Argument(help: "The CSV file.")
    var file: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = makeLogger(level: .warning)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("Cannot read \(file): \(error.localizedDescription)")
        }
        let csv: String
        do {
            csv = try CatalogueImport.text(data)
        } catch {
            let lines = ["\(file): nothing was imported."] + error.problems.map { "\(file): \($0)" }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(1)
        }
        try await database.withDatabase(logger: logger) { connection in
            try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory))
                .migrate(logger: logger)
            let database = try Database(connection: connection, logger: logger)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try? await database.run() }
                defer { group.cancelAll() }
                do {
                    let summary = try await CatalogueImport(database: database).run(csv: csv, store: store, logger: logger)
                    print("Imported \(summary.rows) rows into \(summary.store): \(summary.created) new products, \(summary.updated) updated.")
                } catch let refused as CatalogueImport.Refused {
                    let lines = ["\(file): nothing was imported."] + refused.problems.map { "\(file): \($0)" }
                    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
                    throw ExitCode(1)
                }
            }
        }
    }
}
