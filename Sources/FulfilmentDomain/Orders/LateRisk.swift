import Foundation
import Logging
import PostgresNIO

/// The late-risk sweep (issue 47): announces each pending order that turned at risk or late as
/// `order.at_risk` or `order.late` (webhooks, the live streams, and the customer's message for
/// `order.late`), once per order, kind and ready-by time, however many instances sweep
/// (`sql/routines/sweep_order_timeliness.sql` holds the rule and the unique key that makes it
/// safe).
package struct LateRisk: Sendable {
    package let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Announces what is at risk or late at `now` (the caller's clock, so a test controls it);
    /// returns how many events it emitted.
    @discardableResult
    package func sweep(now: Date, logger: Logger) async throws -> Int {
        try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run("SELECT sweep_order_timeliness(\(now))", logger: logger)
            for try await count in rows.decode(Int32.self) { return Int(count) }
            return 0
        }
    }

    /// Whether the order will be ready on time at `now`; nil when it is closed or has no slot.
    package func timeliness(of order: OrderID, now: Date, logger: Logger) async throws -> OrderTimeliness? {
        let rows = try await database.client.run(
            "SELECT t.* FROM order_timeliness(\(order.rawValue), \(now)) t", logger: logger)
        for try await row in rows { return try OrderQueries.timeliness(row.makeRandomAccess()) }
        return nil
    }
}
