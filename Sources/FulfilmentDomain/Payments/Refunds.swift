import Foundation
import Logging
import PostgresNIO

/// Money going back: an order whose payment status is `refund_due` (paid, then packed short or
/// cancelled for any reason, the expiry of an uncollected order included) is paid back either
/// at the desk, recorded by a manager of its store, or by the payment provider, whose
/// `refund.succeeded` event arrives through the payment webhook (same signature, same replay
/// rule: one event id, applied once). Either way the refund must equal what is owed, is kept
/// in `refunds` with who or which event, and leaves the order `refunded`.
package struct Refunds: Sendable {
    package let database: Database

    /// What an order owes back, read with its row locked for the refund (`RefundQueries`).
    package struct Owing: Sendable {
        package var store: StoreID
        package var paymentStatus: PaymentStatus
        package var refundDue: Int64
        package var currency: String
    }

    /// A manager of the order's store (`scope`) records a refund paid at the desk (audited: who,
    /// when, note). Another store's order is not found.
    package func record(
        order id: OrderID, amount: Money, note: String?, by manager: UserID, in scope: StoreScope, logger: Logger
    ) async throws -> Refund {
        let note = try note.map { text throws(OrderError) in
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= 500, !trimmed.unicodeScalars.contains("\0") else { throw .noteTooLong }
            return trimmed
        }
        let refund = try await database.transaction(logger: logger) { connection in
            guard let owing = try await RefundQueries.lockedOwing(id, in: scope, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            try Self.check(amount, against: owing)
            let refund = try await RefundQueries.insert(
                order: id, store: owing.store, method: "desk", amount: amount, recordedBy: manager, providerEventID: nil,
                note: note?.isEmpty == false ? note : nil, on: connection, logger: logger)
            try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
            return refund
        }
        logger.info("refund recorded", metadata: ["order": "\(id)", "amount": "\(amount.amount)", "by": "\(manager)"])
        return refund
    }

    /// The provider's `refund.succeeded`, inside the webhook's transaction (which has already
    /// claimed the event id): the outcome the webhook answers and records.
    package static func applyProviderRefund(
        order id: OrderID?, amount: Money?, eventID: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> String {
        guard let id, let amount else { return "missing_order_or_amount" }
        guard let owing = try await RefundQueries.lockedOwing(id, on: connection, logger: logger) else { return "unknown_order" }
        do {
            try check(amount, against: owing)
        } catch OrderError.noRefundDue {
            return "no_refund_due"
        } catch {
            return "amount_mismatch"
        }
        _ = try await RefundQueries.insert(
            order: id, store: owing.store, method: "provider", amount: amount, recordedBy: nil, providerEventID: eventID, note: nil,
            on: connection, logger: logger)
        try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        return "refunded"
    }

    /// Only an order owing a refund, and only exactly what it owes.
    private static func check(_ amount: Money, against owing: Owing) throws(OrderError) {
        guard owing.paymentStatus == .refundDue, owing.refundDue > 0 else { throw .noRefundDue(owing.paymentStatus) }
        guard amount.amount == owing.refundDue, amount.currency == owing.currency else {
            throw .refundMismatch(due: owing.refundDue, currency: owing.currency)
        }
    }
}
