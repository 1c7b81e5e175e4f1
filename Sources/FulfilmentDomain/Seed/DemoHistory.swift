import Foundation
import Logging
import PostgresNIO

/// Four weeks of the demo store's past orders (issue 46: "the demo has a few weeks of orders so
/// the reports show something on first opening"), from a dozen regular shoppers: placed in opening
/// hours on the store's clock, busier at lunch and after work and at the weekend, most collected
/// and paid at the desk, a few cancelled. Written straight into the tables in one statement, as a
/// store that had been open a month would hold them; the shoppers cannot sign in (no password).
public enum DemoHistory {
    /// The shoppers, by name: "Find an order" has someone to find (`brown` finds two).
    package static let shoppers = [
        "Marcia Brown", "Desmond Browne", "Andrea Campbell", "Omar Williams", "Simone Thompson", "Kemar Johnson",
        "Tanisha Reid", "Damion Clarke", "Nadine Morgan", "Ricardo Grant", "Shelly-Ann Fraser", "Winston Edwards",
    ]
    /// Days of history, ending yesterday.
    package static let days = 28

    /// Adds the history to `store` (the shoppers too); returns the number of orders written.
    @discardableResult
    public static func insert(into database: Database, store: StoreID, staffEmail: String, logger: Logger) async throws -> Int {
        try await database.transaction(logger: logger) { connection in
            try await DemoSeedQueries.insertShoppers(shoppers, on: connection, logger: logger)
            return try await DemoSeedQueries.insertHistory(store: store, days: days, staffEmail: staffEmail, on: connection, logger: logger)
        }
    }
}
