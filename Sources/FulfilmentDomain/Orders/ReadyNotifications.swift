import Foundation
import Logging
import PostgresNIO

/// "Your order is ready" sent again by staff (a customer at the door who lost the message).
/// The message itself is the outbox's `order.ready_for_pickup` event, written by the history
/// entry's trigger, so it is sent exactly when the entry commits. At most one a minute per
/// order, counting the original: a second click (the duplicate "ready" e-mail of
/// magento/inventory#3328) sends nothing and says when it may be sent again.
package struct ReadyNotifications: Sendable {
    package let database: Database
    /// The shortest time between two ready messages of one order.
    package static let minimumInterval: TimeInterval = 60

    /// Staff of the order's store send its ready message again; another store's order is not
    /// found. (The handler passes the caller; the scope is taken from them here.)
    package func resend(order id: OrderID, by staff: Identity, logger: Logger) async throws -> Order {
        let scope = try StoreScope(staff: staff)
        return try await database.transaction(logger: logger) { connection in
            // The order row is locked, so two clicks at once are one after the other here; the
            // last message is read in a statement of its own, after the lock, so the second click
            // sees the first one's event (committed while it waited).
            guard let (store, status) = try await ReadyNotificationQueries.lockedState(of: id, in: scope, on: connection, logger: logger)
            else { throw OrderError.orderNotFound }
            guard status == .packaged || status == .delivering else { throw OrderError.notReady(status) }
            let since = try await ReadyNotificationQueries.secondsSinceReadyMessage(of: id, on: connection, logger: logger)
            if let since, since < Self.minimumInterval {
                throw OrderError.notificationTooSoon(retryAfter: Int((Self.minimumInterval - since).rounded(.up)))
            }
            try await OrderQueries.recordEvent(
                order: id, store: store, from: status, to: status, actor: staff.userID, reason: "Ready message sent again",
                on: connection, logger: logger)
            return try await Orders.changed(id, on: connection, logger: logger)
        }
    }
}
