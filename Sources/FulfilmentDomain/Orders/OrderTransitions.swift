import Foundation
import Logging
import PostgresNIO

/// Moves orders between states: one transaction per transition, with a conditional update
/// (`WHERE status = expected`), so two staff racing produce one transition and one 409.
/// The rule itself is `OrderStatus.canTransition(to:)`, which `apply` asks; its SQL side,
/// `order_transition_allowed`, is what `collect_order` and the expiry sweep ask (see `OrderStatus`).
package struct OrderTransitions: Sendable {
    /// A reason given for a move, a reissue or a refusal: trimmed, none when empty, at most 500
    /// characters (`invalid_field` beyond), the same rule for the API and the console.
    package static func reason(_ text: String?) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= 500 else { throw APIError.invalidField("reason", "The reason must be at most 500 characters.") }
        return text
    }

    package let database: Database

    /// Staff of the order's store (`scope`) moving it by hand; `completed` is refused (only a
    /// collection scan completes). Another store's order is not found. `bags` (issue 47) are the
    /// zones of the bags it is packed in, only when packing (`invalid_field` otherwise); packed
    /// without them, it is one ambient bag.
    package func move(
        order id: OrderID, to target: OrderStatus, reason: String?, bags: [BagZone]? = nil, by actor: UserID, in scope: StoreScope,
        logger: Logger
    ) async throws -> Order {
        guard bags == nil || target == .packaged else {
            throw BagError.invalidBags(field: "bags", message: "Bags are named when the order is packed (to: packaged).")
        }
        let zones = try Bags.zones(bags)
        return try await database.transaction(logger: logger) { connection in
            guard let current = try await OrderQueries.state(of: id, in: scope, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard target != .completed else {
                throw OrderError.completedOnlyByScan(from: current.status, allowed: current.status.manualTargets)
            }
            try await Self.apply(
                order: id, store: current.store, from: current.status, to: target, reason: reason, actor: actor, bags: zones,
                on: connection, logger: logger)
            return try await Orders.changed(id, on: connection, logger: logger)
        }
    }

    /// The customer cancelling their own order, only while it is pending. Anyone else's order
    /// is not found.
    package func cancelByCustomer(order id: OrderID, reason: String?, by customer: UserID, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            guard let current = try await OrderQueries.state(of: id, customer: customer, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard current.status == .pending else {
                throw OrderError.invalidTransition(from: current.status, to: .cancelled, allowed: [])
            }
            try await Self.apply(
                order: id, store: current.store, from: .pending, to: .cancelled, reason: reason, actor: customer,
                on: connection, logger: logger)
            return try await Orders.changed(id, on: connection, logger: logger)
        }
    }

    /// The conditional update for `from → to` (not `completed`: see `Collections`), its history
    /// entry and, for a cancellation, the release of its reserved stock and its pickup slot's
    /// place, and what a paid order now owes back; inside the caller's transaction, for the
    /// order of `store` it has already found (in its caller's scope). When another transaction
    /// moved the order first, 409 `invalid_transition` from the state it is in now. `actor` nil
    /// is the system (the expiry of uncollected orders). Packing writes its bags (`bags`, one
    /// ambient bag unless told: a pick list packs that way).
    package static func apply(
        order id: OrderID, store: StoreID, from: OrderStatus, to: OrderStatus, reason: String?, actor: UserID?,
        bags: [BagZone] = [.ambient], on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard from.canTransition(to: to) else {
            throw OrderError.invalidTransition(from: from, to: to, allowed: from.manualTargets)
        }
        if to == .cancelled {
            // Its coupon's row before the stock rows, like checkout (cart, coupon, stock): the
            // redemption is given back below.
            try await OrderQueries.lockCoupon(of: id, on: connection, logger: logger)
        }
        if to == .cancelled || to == .packaged {
            // Stock rows first, in product-id order, like checkout: no deadlocks.
            try await OrderQueries.lockStock(of: id, store: store, on: connection, logger: logger)
        }
        guard try await OrderQueries.move(id, from: from, to: to, on: connection, logger: logger) else {
            // Lost a race: report from the state the winner left it in.
            let now = try await OrderQueries.status(of: id, on: connection, logger: logger) ?? from
            throw OrderError.invalidTransition(from: now, to: to, allowed: now.manualTargets)
        }
        if from == .pending {
            // Packed or cancelled by hand while on an open pick list: it leaves the list, so no
            // later pick can change what it holds.
            try await OrderQueries.leaveOpenPickLists(id, on: connection, logger: logger)
        }
        if to == .packaged {
            try await OrderQueries.releaseShortLines(of: id, store: store, on: connection, logger: logger)
            try await BagQueries.record(bags, order: id, store: store, on: connection, logger: logger)
        }
        if to == .cancelled {
            // What the order still holds: all it ordered while pending, what was picked once packaged.
            try await OrderQueries.releaseStock(of: id, store: store, packaged: from != .pending, on: connection, logger: logger)
            // Its pickup slot's place goes back to the store (after the stock and the order row:
            // the lock order of `SlotBookingQueries`). Every cancellation comes through here.
            try await SlotBookingQueries.free(orderOf: id, on: connection, logger: logger)
            // Its coupon redemption goes back: the coupon can be used again (by anyone, and by
            // this customer as many times as before).
            try await OrderQueries.releaseRedemption(of: id, on: connection, logger: logger)
        }
        if to == .packaged || to == .cancelled {
            try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        }
        try await OrderQueries.recordEvent(
            order: id, store: store, from: from, to: to, actor: actor, reason: reason, on: connection, logger: logger)
    }
}
