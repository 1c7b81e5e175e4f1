import Logging

/// `FULFILMENT_RETENTION_DAYS` (issue 32, default off): collected or cancelled orders older than
/// this are anonymised as an erasure anonymises them, by the background sweep that expires
/// orders (the expiry `PeriodicSweep`), in rounds of ``batchSize`` (`retire_orders`), each its own
/// transaction. Every instance may sweep; the database shares the work (SKIP LOCKED).
package struct OrderRetention: Sendable {
    package let database: Database
    /// Days an order is kept with its customer after it was collected or cancelled.
    package let days: Int

    package init(database: Database, days: Int) {
        self.database = database
        self.days = days
    }
    package var batchSize = 100

    package static let dayRange = 1...36_500

    /// Retires every order past retention; answers how many.
    @discardableResult
    package func sweep(logger: Logger) async throws -> Int {
        var total = 0
        while true {
            let retired = try await PrivacyQueries.retireOrders(olderThan: days, limit: batchSize, on: database.client, logger: logger)
            total += retired
            if retired < batchSize { break }
        }
        if total > 0 { logger.info("orders past retention anonymised", metadata: ["count": "\(total)", "days": "\(days)"]) }
        return total
    }
}
