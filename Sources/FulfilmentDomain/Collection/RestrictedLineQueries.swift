import Foundation
import Logging
import PostgresNIO

/// The SQL of taking an order's age-restricted lines off at the desk (`RestrictedLines`).
package enum RestrictedLineQueries {
    /// The order's status and payment status, its row locked (after its stock rows); nil when
    /// the order is gone. A status this version does not know is `UnknownStoredValue`.
    package static func lockedStatus(of id: OrderID, on connection: PostgresConnection, logger: Logger) async throws
        -> (status: OrderStatus, payment: PaymentStatus?)?
    {
        let rows = try await connection.run("SELECT status, payment_status FROM orders WHERE id = \(id.rawValue) FOR UPDATE", logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (try r["status"].stored(OrderStatus.self), try r["payment_status"].stored(PaymentStatus.self))
        }
        return nil
    }

    /// Releases the stock the restricted lines hold, marks them removed by `staff`, and lowers
    /// the order's total to what is left; false when there was no restricted line left to
    /// remove (nothing is changed then). Call with the stock rows and the order row locked.
    package static func remove(
        from id: OrderID, store: StoreID, packaged: Bool, by staff: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        try await connection.run(
            """
            UPDATE stock SET reserved = stock.reserved - held_quantity(l, \(packaged)), updated_at = now()
            FROM order_lines l
            WHERE l.order_id = \(id.rawValue) AND l.minimum_age IS NOT NULL AND l.removed_at IS NULL
              AND stock.store_id = \(store.rawValue) AND stock.product_id = l.product_id
            """, logger: logger)
        let removed = try await connection.run(
            """
            UPDATE order_lines SET removed_at = now(), removed_by = \(staff.rawValue)
            WHERE order_id = \(id.rawValue) AND minimum_age IS NOT NULL AND removed_at IS NULL
            RETURNING 1
            """, logger: logger)
        var count = 0
        for try await _ in removed { count += 1 }
        guard count > 0 else { return false }
        try await OrderQueries.recomputeTotal(of: id, packaged: packaged, on: connection, logger: logger)
        return true
    }
}
