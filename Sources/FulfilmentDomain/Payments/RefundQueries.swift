import Foundation
import Logging
import PostgresNIO

/// The SQL of refunds.
package enum RefundQueries {
    /// What an order owes back, its row locked for the refund; nil when there is no such order
    /// in `scope` (a manager at the desk: their store's orders).
    package static func lockedOwing(_ id: OrderID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws
        -> Refunds.Owing?
    {
        let rows = try await connection.run(
            """
            SELECT \(unescaped: owingColumns) FROM orders WHERE id = \(id.rawValue) AND store_id = \(scope) FOR UPDATE
            """, logger: logger)
        return try await owing(rows)
    }

    /// The same for the payment provider, whose signed `refund.succeeded` may name an order of any store.
    package static func lockedOwing(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> Refunds.Owing? {
        let rows = try await connection.run(
            "SELECT \(unescaped: owingColumns) FROM orders WHERE id = \(id.rawValue) FOR UPDATE", logger: logger)
        return try await owing(rows)
    }

    private static let owingColumns = "store_id, payment_status, refund_due_amount, currency::text AS currency"

    private static func owing(_ rows: SQLRows) async throws -> Refunds.Owing? {
        for try await row in rows {
            let r = row.makeRandomAccess()
            return Refunds.Owing(
                store: StoreID(try r["store_id"].decode(UUID.self)), paymentStatus: try r["payment_status"].stored(PaymentStatus.self),
                refundDue: try r["refund_due_amount"].decode(Int64.self), currency: try r["currency"].decode(String.self))
        }
        return nil
    }

    package static func insert(
        order: OrderID, store: StoreID, method: String, amount: Money, recordedBy: UserID?, providerEventID: String?, note: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Refund {
        let rows = try await connection.run(
            """
            INSERT INTO refunds (store_id, order_id, method, amount, currency, recorded_by, provider_event_id, note)
            VALUES (\(store.rawValue), \(order.rawValue), \(method), \(amount.amount), \(amount.currency), \(recordedBy?.rawValue),
                    \(providerEventID), \(note))
            RETURNING id, created_at
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return Refund(
                id: RefundID(try r["id"].decode(UUID.self)), orderID: order, method: method, amount: amount, recordedBy: recordedBy,
                note: note, recordedAt: try r["created_at"].decode(Date.self))
        }
        throw OrderError.unexpectedlyMissing("the inserted refund's row")
    }

    /// Which lines a refund paid back: one row a line, in the refund's transaction.
    package static func insertLines(
        _ lines: [LineRefunds.Owing], refund: RefundID, order: OrderID, store: StoreID, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !lines.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO refund_lines (refund_id, store_id, order_id, product_id, amount)
            SELECT \(refund.rawValue), \(store.rawValue), \(order.rawValue), line.product_id, line.amount
            FROM unnest(\(lines.map(\.productID.rawValue))::uuid[], \(lines.map(\.amount))::int8[]) AS line (product_id, amount)
            """, logger: logger)
    }
}
