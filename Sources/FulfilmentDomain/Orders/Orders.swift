import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Reading orders: one order as its customer or its store's staff see it, a customer's own
/// list, a store's board. Changing one is `OrderTransitions`, `Checkout`, `Collections`,
/// `Payments`... Whoever may not see an order is told it does not exist (404), so nobody learns
/// that someone else's order exists.
package struct Orders: Sendable {
    package let database: Database
    /// Now, for whether an order will be ready on time (`AppConfiguration.clock`).
    package var clock: @Sendable () -> Date = { Date() }

    /// The order, if `viewer` is its customer or staff of its store; else `orderNotFound`.
    /// The order an id from a path or form names, as `order(_:visibleTo:logger:)` shows it: text
    /// that is not an order id is the same 404 as an order the viewer may not see.
    package func order(_ text: String, visibleTo viewer: Identity, logger: Logger) async throws -> Order {
        guard let id = OrderID(text) else { throw OrderError.orderNotFound }
        return try await order(id, visibleTo: viewer, logger: logger)
    }

    package func order(_ id: OrderID, visibleTo viewer: Identity, logger: Logger) async throws -> Order {
        let scope = viewer.role.worksInStore ? try StoreScope(staff: viewer) : nil
        guard
            let order = try await OrderQueries.order(
                id: id, visibleTo: viewer.userID, orStaffIn: scope, now: clock(), on: database.client, logger: logger)
        else { throw OrderError.orderNotFound }
        return order
    }

    /// The pickup token behind the receipt's QR, for the order's customer only: a token in
    /// staff hands would let the scan hand over without the customer. Anyone else's order, or
    /// one without a token, is `orderNotFound`.
    package func receiptToken(of id: OrderID, customer: UserID, logger: Logger) async throws -> String {
        guard let token = try await OrderQueries.pickupToken(of: id, customer: customer, on: database.client, logger: logger) else {
            throw OrderError.orderNotFound
        }
        return token
    }

    /// A customer's orders, newest first.
    package func list(customer: UserID, limit: Int, cursor: String?, logger: Logger) async throws -> Page<OrderSummary> {
        try await OrderQueries.list(customer: customer, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// A store's order board, oldest first: the open orders, or those with `status`; only for
    /// staff of that store (`scope`).
    package func board(
        of store: StoreID, in scope: StoreScope, status: OrderStatus? = nil, limit: Int, cursor: String? = nil, logger: Logger
    ) async throws -> Page<OrderSummary> {
        try await OrderQueries.board(
            store: store, in: scope, status: status, now: clock(), limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// The caller's store's orders that `text` names (issue 46: a customer on the phone, at the
    /// desk without their phone), newest first, any status unless `status` says: an order number
    /// (`1005` or `#1005`), a part of the customer's name or email address, or a receipt's code
    /// scanned into the box. The code is read for the order it names, not trusted: the search
    /// only ever shows the caller's own store's orders, which staff may read anyway, so an old
    /// or expired receipt still finds its order.
    package func search(
        _ text: String, of store: StoreID, in scope: StoreScope, status: OrderStatus? = nil, limit: Int, cursor: String? = nil,
        logger: Logger
    ) async throws -> Page<OrderSummary> {
        let query = try OrderSearch(text)
        return try await OrderQueries.search(
            query, of: store, in: scope, status: status, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// The caller's store's customers waiting at the kerb (issue 27): open orders whose customer
    /// said "I'm here", longest wait first. The desk shows them beside every scan, so this reads
    /// those orders alone (a partial index), not the whole board.
    package func arrivals(in scope: StoreScope, logger: Logger) async throws -> [OrderSummary] {
        try await OrderQueries.arrivals(in: scope, on: database.client, logger: logger)
    }

    /// The store's time zone when it has a calendar (the pages show its local times).
    package func timeZone(ofStore store: StoreID, logger: Logger) async throws -> TimeZone? {
        try await CalendarQueries.calendar(store: store, on: database.client, logger: logger)?.timeZone
    }

    /// The order as a change inside this transaction left it, for the answer (it was found
    /// before the change, so it is there).
    package static func changed(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> Order {
        guard let order = try await OrderQueries.order(id: id, on: connection, logger: logger) else {
            throw OrderError.unexpectedlyMissing("order \(id), changed in this transaction")
        }
        return order
    }
}
