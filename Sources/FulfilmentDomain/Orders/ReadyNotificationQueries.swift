import Foundation
import Logging
import PostgresNIO

/// The SQL of sending "your order is ready" again (`ReadyNotifications`).
package enum ReadyNotificationQueries {
    /// The order's store and status, its row locked; nil when it is not in `scope` (staff of its store).
    package static func lockedState(of id: OrderID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws
        -> (store: StoreID, status: OrderStatus)?
    {
        let rows = try await connection.run(
            "SELECT store_id, status FROM orders WHERE id = \(id.rawValue) AND store_id = \(scope) FOR UPDATE", logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (StoreID(try r["store_id"].decode(UUID.self)), try r["status"].stored(OrderStatus.self))
        }
        return nil
    }

    /// Seconds since the order's last ready message was written (by the clock, not the
    /// transaction's start); nil when it has none.
    package static func secondsSinceReadyMessage(of id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> Double? {
        let last = try await connection.run(
            """
            SELECT extract(epoch FROM clock_timestamp() - max(occurred_at))::float8 FROM events
            WHERE order_id = \(id.rawValue) AND type = 'order.ready_for_pickup'
            """, logger: logger)
        var since: Double?
        for try await seconds in last.decode(Double?.self) { since = seconds }
        return since
    }
}
