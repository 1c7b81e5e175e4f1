import Foundation
import Logging
import PostgresNIO

/// When a customer cannot show ID: staff take the age-restricted lines off the order at the
/// desk, in one transaction — their reserved stock released, the total lowered, the line kept
/// (marked removed, by whom) — so the rest can be paid for and handed over.
package struct RestrictedLines: Sendable {
    package let database: Database

    /// Staff of the order's store (`scope`) remove its restricted lines; another store's order
    /// is not found.
    package func remove(from id: OrderID, by staff: UserID, in scope: StoreScope, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            guard let found = try await OrderQueries.state(of: id, in: scope, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            // Stock rows before the order row: the lock order every stock-changing transaction uses.
            try await OrderQueries.lockStock(of: id, store: found.store, on: connection, logger: logger)
            guard let (status, payment) = try await RestrictedLineQueries.lockedStatus(of: id, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard status != .cancelled else { throw OrderError.orderCancelled }
            guard status != .completed else {
                throw OrderError.invalidTransition(from: status, to: status, allowed: [])
            }
            guard payment == .unpaid else { throw IDCheckError.orderPaid }
            guard
                try await RestrictedLineQueries.remove(
                    from: id, store: found.store, packaged: status != .pending, by: staff, on: connection, logger: logger)
            else { throw IDCheckError.nothingToRemove }
            try await OrderQueries.recordEvent(
                order: id, store: found.store, from: status, to: status, actor: staff,
                reason: "age-restricted lines removed: no ID shown", on: connection, logger: logger)
            return try await Orders.changed(id, on: connection, logger: logger)
        }
    }
}
