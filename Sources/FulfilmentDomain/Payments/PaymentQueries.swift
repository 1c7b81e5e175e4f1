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
        o.store_id, o.status, o.payment_method, o.payment_status, o.total_amount, o.currency::text AS currency,
        (SELECT coalesce(sum(order_line_amount(l, l.quantity)), 0)::int8 FROM order_lines l WHERE l.order_id = o.id) AS ordered_amount
        """

    private static func payable(_ rows: SQLRows) async throws -> PayableOrder? {
        for try await row in rows {
            let r = row.makeRandomAccess()
            return PayableOrder(
                store: StoreID(try r["store_id"].decode(UUID.self)), status: try r["status"].stored(OrderStatus.self),
                method: try r["payment_method"].stored(PaymentMethod.self), paymentStatus: try r["payment_status"].stored(PaymentStatus.self),
                total: try r["total_amount"].decode(Int64.self), ordered: try r["ordered_amount"].decode(Int64.self),
                currency: try r["currency"].decode(String.self))
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
        for try await row in rows {
            let r = row.makeRandomAccess()
            return Payment(
                id: PaymentID(try r["id"].decode(UUID.self)), orderID: id, method: method, amount: amount,
                recordedAt: try r["created_at"].decode(Date.self))
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

    /// An order's payment and refunds, oldest first, with the names of who recorded them.
    package static func movements(of order: OrderID, on client: PostgresClient, logger: Logger) async throws -> [MoneyMovement] {
        let rows = try await client.read(
            """
            SELECT m.id, m.kind, m.method, m.amount, m.currency::text AS currency, u.name AS recorded_by, m.note, m.created_at
            FROM (
                SELECT p.id, 'payment' AS kind, p.method, p.amount, p.currency, p.recorded_by, NULL::text AS note, p.created_at
                FROM payments p WHERE p.order_id = \(order.rawValue)
                UNION ALL
                SELECT r.id, 'refund', r.method, r.amount, r.currency, r.recorded_by, r.note, r.created_at
                FROM refunds r WHERE r.order_id = \(order.rawValue)
            ) m LEFT JOIN users u ON u.id = m.recorded_by
            ORDER BY m.created_at, m.kind, m.id
            LIMIT 100
            """, logger: logger)
        var movements: [MoneyMovement] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            movements.append(
                MoneyMovement(
                    id: try r["id"].decode(UUID.self), kind: try r["kind"].stored(MoneyMovement.Kind.self),
                    method: try r["method"].decode(String.self),
                    amount: Money(amount: try r["amount"].decode(Int64.self), currency: try r["currency"].decode(String.self)),
                    recordedBy: try r["recorded_by"].decode(String?.self), note: try r["note"].decode(String?.self),
                    at: try r["created_at"].decode(Date.self)))
        }
        return movements
    }
}
