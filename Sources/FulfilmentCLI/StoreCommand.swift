import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// `fulfilment store create|update|list` and `fulfilment store aisle add|update|remove|list`:
/// the chain admin's work on stores and aisles from the command line, through the same
/// `Stores` rules and SQL as the API. A refusal prints the API's own sentence and exits 1.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Open and edit the chain's stores and lay out their aisles.",
        subcommands: [Create.self, Update.self, List.self, AisleCommand.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a store.")

        @Option(help: "2 to 20 capitals, digits or hyphens, e.g. QC-KGN (unique).")
        var code: String
        @Option(help: "The store's name.")
        var name: String
        @Option(help: "ISO 4217 currency of its prices, e.g. JMD.")
        var currency: String
        @Option(help: "Street address.")
        var address: String = ""
        @Option(help: "Where it is: latitude in degrees, -90 to 90 (with --longitude); a negative one as --latitude=-33.9.")
        var latitude: Double?
        @Option(help: "Where it is: longitude in degrees, -180 to 180 (with --latitude); a negative one as --longitude=-76.8.")
        var longitude: Double?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let store = try await stores.create(
                    code: code, name: name, address: address, currency: currency, location: try location(latitude, longitude), logger: logger)
                print("Created store \(store.code) \(store.name) (\(store.id)).")
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a store's code, name, address, location or new-arrival window.")

        @Option(help: "The store: its code or id.")
        var store: String
        @Option(help: "A new code.")
        var code: String?
        @Option(help: "A new name.")
        var name: String?
        @Option(help: "A new address.")
        var address: String?
        @Option(help: "A new latitude in degrees (with --longitude); a negative one as --latitude=-33.9.")
        var latitude: Double?
        @Option(help: "A new longitude in degrees (with --latitude); a negative one as --longitude=-76.8.")
        var longitude: Double?
        @Option(help: "How many days, 1 to 365, a product counts as new after it joins the store's range (14 for a new store).")
        var newArrivalDays: Int?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let id = try await storeID(store, stores, logger)
                let updated = try await stores.update(
                    id, code: code, name: name, address: address, location: try location(latitude, longitude),
                    newArrivalDays: newArrivalDays, logger: logger)
                print("Updated store \(updated.code) \(updated.name).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every store: code, currency, name, id.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                for store in try await stores.all(logger: logger) {
                    print("\(store.code)\t\(store.currency)\t\(store.name)\t\(store.id)")
                }
            }
        }
    }
}

/// `fulfilment store aisle ...`.
struct AisleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aisle", abstract: "A store's aisles: code, name, walk order and zone.",
        subcommands: [Add.self, Update.self, Remove.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an aisle to a store.")
        @Option(help: "The store: its code or id.")
        var store: String
        @Option(help: "The aisle's code, as shelf labels say it (e.g. 6).")
        var code: String
        @Option(help: "The aisle's name (e.g. Dairy).")
        var name: String
        @Option(help: "Where it comes in the picker's walk, 0 to 10000 (unique in the store).")
        var walkOrder: Int
        @Option(help: "ambient, chilled or frozen.")
        var zone: String = "ambient"
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let id = try await storeID(store, stores, logger)
                let aisle = try await stores.addAisle(
                    to: id, .init(code: code, name: name, walkOrder: walkOrder, zone: zone), logger: logger)
                print("Added aisle \(aisle.code) \(aisle.name) (walk order \(aisle.walkOrder), \(aisle.zone)).")
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an aisle's code, name, walk order or zone.")
        @Option(help: "The store: its code or id.")
        var store: String
        @Option(help: "The aisle's current code.")
        var aisle: String
        @Option(help: "A new code.")
        var code: String?
        @Option(help: "A new name.")
        var name: String?
        @Option(help: "A new walk order.")
        var walkOrder: Int?
        @Option(help: "A new zone.")
        var zone: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let id = try await storeID(store, stores, logger)
                let current = try await aisleID(aisle, of: id, stores, logger)
                let updated = try await stores.updateAisle(
                    current, of: id, .init(code: code, name: name, walkOrder: walkOrder, zone: zone), logger: logger)
                print("Updated aisle \(updated.code) \(updated.name) (walk order \(updated.walkOrder), \(updated.zone)).")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an aisle no product is placed in.")
        @Option(help: "The store: its code or id.")
        var store: String
        @Option(help: "The aisle's code.")
        var aisle: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let id = try await storeID(store, stores, logger)
                try await stores.removeAisle(try await aisleID(aisle, of: id, stores, logger), of: id, logger: logger)
                print("Removed aisle \(aisle).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A store's aisles in walk order: walk order, code, zone, name.")
        @Option(help: "The store: its code or id.")
        var store: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withStores(database) { stores, logger in
                let id = try await storeID(store, stores, logger)
                for aisle in try await stores.aisles(of: id, logger: logger) {
                    print("\(aisle.walkOrder)\t\(aisle.code)\t\(aisle.zone)\t\(aisle.name)")
                }
            }
        }
    }
}

/// Runs `body` with the chain's `Stores` on a running client, pending migrations applied first;
/// a refusal (a taken code, an aisle in use...) is printed as the API words it, and the command exits 1.
private func withStores(_ options: DatabaseOptions, _ body: @Sendable (Stores, Logger) async throws -> Void) async throws {
    let logger = makeLogger(level: .warning)
    do {
        try await options.withDatabase(logger: logger) { connection in
            // A new chain's first store may be made on a database nothing has migrated yet.
            try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory))
                .migrate(logger: logger)
            try await withDatabaseClient(connection: connection, logger: logger) { database in
                try await body(Stores(database: database), logger)
            }
        }
    } catch let refusal as any APIErrorConvertible {
        FileHandle.standardError.write(Data("fulfilment: \(refusal.apiError.message)\n".utf8))
        throw ExitCode(1)
    }
}

/// A store's location from `--latitude` and `--longitude`: both or neither (the ranges are `Stores`' to check).
private func location(_ latitude: Double?, _ longitude: Double?) throws(ChainError) -> GeoPoint? {
    switch (latitude, longitude) {
    case (let latitude?, let longitude?): GeoPoint(latitude: latitude, longitude: longitude)
    case (nil, nil): nil
    default: throw ChainError.invalidField("location", "Give --latitude and --longitude together.")
    }
}

private func storeID(_ codeOrID: String, _ stores: Stores, _ logger: Logger) async throws -> StoreID {
    guard let store = try await stores.store(codeOrID: codeOrID, logger: logger) else {
        throw ChainError.invalidField("store", "No store with code or id '\(codeOrID)'.")
    }
    return store.id
}

private func aisleID(_ code: String, of store: StoreID, _ stores: Stores, _ logger: Logger) async throws -> AisleID {
    guard let aisle = try await stores.aisles(of: store, logger: logger).first(where: { $0.code == code }) else {
        throw ChainError.aisleNotFound
    }
    return aisle.id
}
