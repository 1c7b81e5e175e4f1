import Foundation
import Logging
import PostgresNIO

/// The SQL of payments: the order's payment facts under its row lock, the payment itself, and
/// the provider's webhook events (`payment_webhook_events`, one row per event id).
package enum PaymentQueries {
    /// The order's payment facts, its row locked for the payment; nil when there is no such
    /// order in `scope` (the desk: staff of the order's store).
    package static func lockedOrder(_ id: OrderID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws
        -> PayableOrder?
    {
        let rows = try await connection.run(
            """
            SELECT \(unescaped: payableColumns)
            FROM orders o WHERE o.id = \(id.rawValue) AND o.store_id = \(scope) FOR UPDATE
            """, logger: logger)
        return try await payable(rows)
    }

    /// The same for the payment provider, whose signed event may settle an order of any store.
    package static func lockedOrder(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> PayableOrder? {
        let rows = try await connection.run(
            "SELECT \(unescaped: payableColumns) FROM orders o WHERE o.id = \(id.rawValue) FOR UPDATE", logger: logger)
        return try await payable(rows)
    }

    /// The last column is what was ordered at checkout, after each line's coupon share
    /// (`order_line_amount` of all it ordered): what the provider charged a prepaid order.
    private static let payableColumns = """
        o.store_id, o.status, o.payment_method, o.payment_status, o.total_amount, o.currency::text,
        (SELECT coalesce(sum(order_line_amount(l, l.quantity)), 0)::int8 FROM order_lines l WHERE l.order_id = o.id)
        """

    private static func payable(_ rows: SQLRows) async throws -> PayableOrder? {
        for try await row in rows.decode((UUID, String, String, String, Int64, String, Int64).self) {
            return PayableOrder(
                store: StoreID(row.0), status: OrderStatus(rawValue: row.1) ?? .pending,
                method: PaymentMethod(rawValue: row.2) ?? .payAtCollection,
                paymentStatus: PaymentStatus(rawValue: row.3) ?? .unpaid, total: row.4, ordered: row.6, currency: row.5)
        }
        return nil
    }

    /// Marks the order paid (if it was unpaid) and records the payment, in one statement.
    package static func settle(
        order id: OrderID, store: StoreID, method: String, amount: Money, recordedBy: UserID?, providerEventID: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Payment {
        let rows = try await connection.run(
            """
            WITH o AS (
                UPDATE orders SET payment_status = 'paid', paid_at = now()
                WHERE id = \(id.rawValue) AND payment_status = 'unpaid'
            )
            INSERT INTO payments (store_id, order_id, method, amount, currency, recorded_by, provider_event_id)
            VALUES (\(store.rawValue), \(id.rawValue), \(method), \(amount.amount), \(amount.currency), \(recordedBy?.rawValue),
                    \(providerEventID))
            RETURNING id, created_at
            """, logger: logger)
        for try await (paymentID, at) in rows.decode((UUID, Date).self) {
            return Payment(id: PaymentID(paymentID), orderID: id, method: method, amount: amount, recordedAt: at)
        }
        throw OrderError.unexpectedlyMissing("the inserted payment's row")
    }

    /// Claims a provider event id for this delivery; false when an earlier delivery has it.
    package static func claimEvent(
        _ eventID: String, type: String, order: OrderID?, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        let inserted = try await connection.run(
            """
            INSERT INTO payment_webhook_events (event_id, type, order_id, outcome)
            VALUES (\(eventID), \(type), \(order?.rawValue), 'processing')
            ON CONFLICT (event_id) DO NOTHING
            RETURNING 1
            """, logger: logger)
        var fresh = false
        for try await _ in inserted { fresh = true }
        return fresh
    }

    /// What the first delivery of an event did; nil if it is not recorded.
    package static func outcome(ofEvent eventID: String, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.run("SELECT outcome FROM payment_webhook_events WHERE event_id = \(eventID)", logger: logger)
        var outcome: String?
        for try await row in rows.decode(String.self) { outcome = row }
        return outcome
    }

    package static func recordOutcome(_ outcome: String, ofEvent eventID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("UPDATE payment_webhook_events SET outcome = \(outcome) WHERE event_id = \(eventID)", logger: logger)
    }
}
