import Foundation
import Logging
import PostgresNIO

/// The payment provider's webhook: its events, each applied once (a replayed event id answers
/// what the first delivery did and changes nothing). The signature over the raw body is checked
/// before the event is decoded (`WebhookSignatureMiddleware`, `PaymentWebhookSignature`).
package struct PaymentWebhook: Sendable {
    package let database: Database

    /// What the webhook did with an event.
    package struct Outcome: Sendable {
        package var eventID: String
        package var outcome: String
        package var duplicate: Bool
    }

    /// `payment.succeeded` settles a prepaid order when the amount matches; `refund.succeeded`
    /// records the provider's refund of an order owing one (`Refunds`); anything else is
    /// recorded and ignored, answered 200 so the provider stops retrying.
    package func receive(eventID: String, type: String, orderID: OrderID?, amount: Money?, logger: Logger) async throws -> Outcome {
        try await database.transaction(logger: logger) { connection in
            guard try await PaymentQueries.claimEvent(eventID, type: type, order: orderID, on: connection, logger: logger) else {
                let outcome = try await PaymentQueries.outcome(ofEvent: eventID, on: connection, logger: logger)
                return Outcome(eventID: eventID, outcome: outcome ?? "unknown", duplicate: true)
            }
            let outcome = try await Self.apply(type: type, orderID: orderID, amount: amount, eventID: eventID, on: connection, logger: logger)
            try await PaymentQueries.recordOutcome(outcome, ofEvent: eventID, on: connection, logger: logger)
            return Outcome(eventID: eventID, outcome: outcome, duplicate: false)
        }
    }

    private static func apply(
        type: String, orderID: OrderID?, amount: Money?, eventID: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> String {
        if type == "refund.succeeded" {
            return try await Refunds.applyProviderRefund(order: orderID, amount: amount, eventID: eventID, on: connection, logger: logger)
        }
        guard type == "payment.succeeded" else { return "ignored" }
        guard let orderID, let amount else { return "missing_order_or_amount" }
        guard let order = try await PaymentQueries.lockedOrder(orderID, on: connection, logger: logger) else { return "unknown_order" }
        guard order.paymentStatus == .unpaid else { return "already_paid" }
        // A prepaid order is paid for what was ordered: a short pick or a cancellation since
        // checkout does not change what the provider charged; the difference is owed back.
        let expected = order.method == .prepaid ? order.ordered : order.total
        guard amount.amount == expected, amount.currency == order.currency else { return "amount_mismatch" }
        guard order.status != .cancelled || order.method == .prepaid else { return "order_cancelled" }
        _ = try await Payments.settle(
            order: orderID, store: order.store, method: "provider", amount: amount, recordedBy: nil,
            providerEventID: eventID, on: connection, logger: logger)
        return order.status == .cancelled || expected != order.total ? "paid_refund_due" : "paid"
    }
}
