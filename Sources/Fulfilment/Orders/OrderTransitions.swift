import Foundation
import Logging
import PostgresNIO

/// Moves orders between states: one transaction per transition, with a conditional update
/// (`WHERE status = expected`), so two staff racing produce one transition and one 409.
/// The rule itself is `OrderStatus.canTransition(to:)`.
enum OrderTransitions {
    /// Staff moving an order by hand; `completed` is refused (only a collection scan completes).
    static func move(
        order id: OrderID, to target: OrderStatus, reason: String?, by actor: Identity, on database: Database, logger: Logger
    ) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            guard let current = try await status(of: id, on: connection, logger: logger), actor.worksAt(current.store) else {
                throw OrderError.orderNotFound
            }
            guard target != .completed else {
                throw OrderError.completedOnlyByScan(from: current.status, allowed: current.status.manualTargets)
            }
            try await apply(order: id, store: current.store, from: current.status, to: target, reason: reason, actor: actor.userID,
                on: connection, logger: logger)
            return try await OrderQueries.order(id: id, on: connection, logger: logger)!
        }
    }

    /// The customer cancelling their own order, only while it is pending.
    static func cancelByCustomer(order id: OrderID, reason: String?, by actor: Identity, on database: Database, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            guard let current = try await status(of: id, on: connection, logger: logger), current.customer == actor.userID else {
                throw OrderError.orderNotFound
            }
            guard current.status == .pending else {
                throw OrderError.invalidTransition(from: current.status, to: .cancelled, allowed: [])
            }
            try await apply(order: id, store: current.store, from: .pending, to: .cancelled, reason: reason, actor: actor.userID,
                on: connection, logger: logger)
            return try await OrderQueries.order(id: id, on: connection, logger: logger)!
        }
    }

    struct Current {
        var store: StoreID
        var customer: UserID
        var status: OrderStatus
    }

    static func status(of id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> Current? {
        let rows = try await connection.run(
            "SELECT store_id, customer_id, status FROM orders WHERE id = \(id.rawValue)", logger: logger)
        for try await (store, customer, status) in rows.decode((UUID, UUID, String).self) {
            return Current(store: StoreID(store), customer: UserID(customer), status: OrderStatus(rawValue: status) ?? .pending)
        }
        return nil
    }

    /// The conditional update for `from → to` (not `completed`: see `Collections`), its history
    /// entry and, for a cancellation, the release of its reserved stock and its pickup slot's
    /// place, and what a paid order now owes back. When another transaction moved the order
    /// first, 409 `invalid_transition` from the state it is in now. `actor` nil is the system
    /// (the expiry of uncollected orders).
    static func apply(
        order id: OrderID, store: StoreID, from: OrderStatus, to: OrderStatus, reason: String?, actor: UserID?,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard from.canTransition(to: to) else {
            throw OrderError.invalidTransition(from: from, to: to, allowed: from.manualTargets)
        }
        if to == .cancelled || to == .packaged {
            // Stock rows first, in product-id order, like checkout: no deadlocks.
            try await OrderQueries.lockStock(of: id, store: store, on: connection, logger: logger)
        }
        let updated = try await connection.run(
            """
            UPDATE orders SET status = \(to.rawValue),
                packaged_at = CASE WHEN \(to.rawValue) = 'packaged' THEN now() ELSE packaged_at END,
                delivering_at = CASE WHEN \(to.rawValue) = 'delivering' THEN now() ELSE delivering_at END,
                cancelled_at = CASE WHEN \(to.rawValue) = 'cancelled' THEN now() ELSE cancelled_at END
            WHERE id = \(id.rawValue) AND status = \(from.rawValue)
            RETURNING 1
            """, logger: logger)
        var moved = false
        for try await _ in updated { moved = true }
        guard moved else {
            // Lost a race: report from the state the winner left it in.
            let now = try await status(of: id, on: connection, logger: logger)?.status ?? from
            throw OrderError.invalidTransition(from: now, to: to, allowed: now.manualTargets)
        }
        if from == .pending {
            // Packed or cancelled by hand while on an open pick list: it leaves the list, so no
            // later pick can change what it holds.
            try await connection.run(
                "UPDATE pick_batch_orders SET open = false WHERE order_id = \(id.rawValue) AND open", logger: logger)
        }
        if to == .packaged {
            try await OrderQueries.releaseShortLines(of: id, store: store, on: connection, logger: logger)
        }
        if to == .cancelled {
            // What the order still holds: all it ordered while pending, what was picked once packaged.
            try await connection.run(
                """
                UPDATE stock SET reserved = stock.reserved - held_quantity(l, \(from != .pending)), updated_at = now()
                FROM order_lines l
                WHERE l.order_id = \(id.rawValue) AND stock.store_id = \(store.rawValue) AND stock.product_id = l.product_id
                """, logger: logger)
            // Its pickup slot's place goes back to the store (after the stock and the order row:
            // the lock order of `SlotBookingQueries`). Every cancellation comes through here.
            try await SlotBookingQueries.free(orderOf: id, on: connection, logger: logger)
        }
        if to == .packaged || to == .cancelled {
            try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        }
        try await OrderQueries.recordEvent(
            order: id, store: store, from: from, to: to, actor: actor, reason: reason, on: connection, logger: logger)
    }
}
