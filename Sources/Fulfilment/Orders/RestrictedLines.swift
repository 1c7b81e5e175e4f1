import Foundation
import Logging
import PostgresNIO

/// When a customer cannot show ID: staff take the age-restricted lines off the order at the
/// desk, in one transaction — their reserved stock released, the total lowered, the line kept
/// (marked removed, by whom) — so the rest can be paid for and handed over.
struct RestrictedLines: Sendable {
    let database: Database

    func remove(from id: OrderID, by staff: Identity, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            guard let found = try await OrderTransitions.status(of: id, on: connection, logger: logger), staff.worksAt(found.store) else {
                throw OrderError.orderNotFound
            }
            // Stock rows before the order row: the lock order every stock-changing transaction uses.
            try await OrderQueries.lockStock(of: id, store: found.store, on: connection, logger: logger)
            let rows = try await connection.run(
                "SELECT status, payment_status FROM orders WHERE id = \(id.rawValue) FOR UPDATE", logger: logger)
            var state: (String, String)?
            for try await row in rows.decode((String, String).self) { state = row }
            guard let (statusText, payment) = state, let status = OrderStatus(rawValue: statusText) else { throw OrderError.orderNotFound }
            guard status != .cancelled else { throw OrderError.orderCancelled }
            guard status != .completed else {
                throw OrderError.invalidTransition(from: status, to: status, allowed: [])
            }
            guard payment == PaymentStatus.unpaid.rawValue else { throw IDCheckError.orderPaid }
            let packaged = status != .pending
            try await connection.run(
                """
                UPDATE stock SET reserved = stock.reserved - held_quantity(l, \(packaged)), updated_at = now()
                FROM order_lines l
                WHERE l.order_id = \(id.rawValue) AND l.minimum_age IS NOT NULL AND l.removed_at IS NULL
                  AND stock.store_id = \(found.store.rawValue) AND stock.product_id = l.product_id
                """, logger: logger)
            let removed = try await connection.run(
                """
                UPDATE order_lines SET removed_at = now(), removed_by = \(staff.userID.rawValue)
                WHERE order_id = \(id.rawValue) AND minimum_age IS NOT NULL AND removed_at IS NULL
                RETURNING 1
                """, logger: logger)
            var count = 0
            for try await _ in removed { count += 1 }
            guard count > 0 else { throw IDCheckError.nothingToRemove }
            try await connection.run(
                """
                UPDATE orders SET total_amount = (
                    SELECT coalesce(sum(l.unit_price * held_quantity(l, \(packaged))), 0) FROM order_lines l WHERE l.order_id = \(id.rawValue))
                WHERE id = \(id.rawValue)
                """, logger: logger)
            try await OrderQueries.recordEvent(
                order: id, store: found.store, from: status, to: status, actor: staff.userID,
                reason: "age-restricted lines removed: no ID shown", on: connection, logger: logger)
            return try await OrderQueries.order(id: id, on: connection, logger: logger)!
        }
    }
}
