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
    ///
    /// Without `lines` the refund is the whole of what the order owes, shared over the lines that
    /// owe it (`LineRefunds.shared`). With `lines` it pays back those lines, each at most what it
    /// may still give back, together `amount`, and may be less than the order owes: the order
    /// stays `refund_due` with the rest (issue 46).
    package func record(
        order id: OrderID, amount: Money, lines: [LineRefunds.Owing]? = nil, note: String?, by manager: UserID, in scope: StoreScope,
        logger: Logger
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
            try Self.checkOwes(owing)
            let byLine = try await Self.lineRefunds(of: id, on: connection, logger: logger)
            let shares: [LineRefunds.Owing]
            if let lines {
                guard amount.currency == owing.currency else { throw OrderError.refundMismatch(due: owing.refundDue, currency: owing.currency) }
                try byLine.check(lines, amount: amount, due: owing.refundDue)
                shares = lines
            } else {
                try Self.check(amount, against: owing)
                shares = byLine.shared(amount.amount)
            }
            var refund = try await RefundQueries.insert(
                order: id, store: owing.store, method: "desk", amount: amount, recordedBy: manager, providerEventID: nil,
                note: note?.isEmpty == false ? note : nil, on: connection, logger: logger)
            try await RefundQueries.insertLines(shares, refund: refund.id, order: id, store: owing.store, on: connection, logger: logger)
            refund.lines = shares
            try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
            return refund
        }
        logger.info("refund recorded", metadata: ["order": "\(id)", "amount": "\(amount.amount)", "by": "\(manager)"])
        return refund
    }

    /// The provider's `refund.succeeded`, inside the webhook's transaction (which has already
    /// claimed the event id): the outcome the webhook answers and records. The provider refunds
    /// the whole of what is owed, shared over the lines as the desk's whole refund is.
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
        let shares = try await lineRefunds(of: id, on: connection, logger: logger).shared(amount.amount)
        let refund = try await RefundQueries.insert(
            order: id, store: owing.store, method: "provider", amount: amount, recordedBy: nil, providerEventID: eventID, note: nil,
            on: connection, logger: logger)
        try await RefundQueries.insertLines(shares, refund: refund.id, order: id, store: owing.store, on: connection, logger: logger)
        try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        return "refunded"
    }

    /// What each line of the order may still give back, read under the order's lock.
    private static func lineRefunds(of id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> LineRefunds {
        guard let order = try await OrderQueries.order(id: id, on: connection, logger: logger) else {
            throw OrderError.unexpectedlyMissing("the locked order's view")
        }
        return LineRefunds(order)
    }

    /// Only an order owing a refund.
    private static func checkOwes(_ owing: Owing) throws(OrderError) {
        guard owing.paymentStatus == .refundDue, owing.refundDue > 0 else { throw .noRefundDue(owing.paymentStatus) }
    }

    /// Only an order owing a refund, and only exactly what it owes.
    private static func check(_ amount: Money, against owing: Owing) throws(OrderError) {
        try checkOwes(owing)
        guard amount.amount == owing.refundDue, amount.currency == owing.currency else {
            throw .refundMismatch(due: owing.refundDue, currency: owing.currency)
        }
    }
}
