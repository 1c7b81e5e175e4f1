import Foundation
import Logging
import PostgresNIO

/// Money in at the desk: staff recording a payment for a `pay_at_collection` order (the payment
/// provider's webhook settles `prepaid` ones: `PaymentWebhook`). One payment settles an order in
/// full (a UNIQUE constraint keeps it to one). No card data ever reaches this service.
package struct Payments: Sendable {
    package let database: Database

    package enum DeskMethod: String { case card, cash }

    /// Staff of the order's store (`scope`) record a payment; the amount must equal the amount
    /// due. Another store's order is not found.
    package func record(
        order id: OrderID, method: DeskMethod, amount: Money, by staff: UserID, in scope: StoreScope, logger: Logger
    ) async throws -> Payment {
        try await database.transaction(logger: logger) { connection in
            guard let order = try await PaymentQueries.lockedOrder(id, in: scope, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            guard order.status != .cancelled else { throw OrderError.orderCancelled }
            guard order.paymentStatus == .unpaid else { throw OrderError.alreadyPaid }
            // The provider charged for it at checkout: taking money again at the desk would charge twice.
            guard order.method != .prepaid else { throw OrderError.prepaidOrder }
            guard amount.amount == order.total, amount.currency == order.currency else {
                throw OrderError.amountMismatch(due: order.total, currency: order.currency)
            }
            return try await Self.settle(
                order: id, store: order.store, method: method.rawValue, amount: Money(amount: order.total, currency: order.currency),
                recordedBy: staff, providerEventID: nil, on: connection, logger: logger)
        }
    }

    /// The payment and refunds of an order its reader may see (its customer, or staff of its
    /// store; another's order is not found), oldest first.
    package func movements(of order: OrderID, visibleTo identity: Identity, orders: Orders, logger: Logger) async throws -> [MoneyMovement] {
        try await movements(of: try await orders.order(order, visibleTo: identity, logger: logger), logger: logger)
    }

    /// The payment and refunds of an order already read for its reader (the order page reads
    /// the order once for everything it shows).
    package func movements(of order: Order, logger: Logger) async throws -> [MoneyMovement] {
        try await PaymentQueries.movements(of: order.id, on: database.client, logger: logger)
    }

    /// Records the payment and settles the order, inside the caller's transaction (the desk's or
    /// the webhook's); what was paid beyond what the customer now gets (packed short, or
    /// cancelled) becomes `refund_due`.
    package static func settle(
        order id: OrderID, store: StoreID, method: String, amount: Money, recordedBy: UserID?, providerEventID: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Payment {
        let payment = try await PaymentQueries.settle(
            order: id, store: store, method: method, amount: amount, recordedBy: recordedBy, providerEventID: providerEventID,
            on: connection, logger: logger)
        try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        return payment
    }
}
