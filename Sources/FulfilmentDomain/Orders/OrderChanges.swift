import Foundation
import Logging
import PostgresNIO

/// The customer changes their order's lines until the cut-off, the moment it joins a pick list
/// (issue 48): add, remove, change quantities. One statement does every write, holding every
/// lock it takes (`change_order_lines`, `sql/routines/change_order_lines.sql`: stock re-reserved
/// and never oversold, the slot's pick work booked again and never overbooked, the coupon
/// evaluated again, the price guarantee kept, the history entry and its `order.changed`); then
/// what a paid order owes back is settled again, in the same transaction. The pickup token stays.
package struct OrderChanges: Sendable {
    package let database: Database

    /// `customer`'s own order `id` with `change` applied; another's order is not found. A change
    /// that changes nothing answers the order as it is, with no history entry.
    package func change(order id: OrderID, _ change: OrderChange, by customer: UserID, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            try await OrderError.mappingDatabaseErrors {
                if try await OrderChangeQueries.apply(change, to: id, by: customer, on: connection, logger: logger) {
                    // Less to pay now, or more: a paid order's refund due follows its total.
                    try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
                }
                return try await Orders.changed(id, on: connection, logger: logger)
            }
        }
    }
}
