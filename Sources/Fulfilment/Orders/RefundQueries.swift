import Foundation
import Logging
import PostgresNIO

/// Money paid back on an order (the `refunds` table, 012).
public struct Refund: Sendable, Equatable {
    public var id: UUID
    public var orderID: OrderID
    /// `desk` (a manager recorded it) or `provider` (its `refund.succeeded` event).
    public var method: String
    public var amount: Money
    public var recordedBy: UserID?
    public var note: String?
    public var recordedAt: Date
}

/// The SQL of refunds.
enum RefundQueries {
    /// What an order owes back, its row locked for the refund; nil when there is no such order.
    struct Owing {
        var store: StoreID
        var paymentStatus: PaymentStatus
        var refundDue: Int64
        var currency: String
    }

    static func lockedOwing(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> Owing? {
        let rows = try await connection.run(
            """
            SELECT store_id, payment_status, refund_due_amount, currency::text FROM orders WHERE id = \(id.rawValue) FOR UPDATE
            """, logger: logger)
        for try await (store, status, due, currency) in rows.decode((UUID, String, Int64, String).self) {
            return Owing(store: StoreID(store), paymentStatus: PaymentStatus(rawValue: status) ?? .unpaid, refundDue: due, currency: currency)
        }
        return nil
    }

    static func insert(
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
        for try await (id, at) in rows.decode((UUID, Date).self) {
            return Refund(id: id, orderID: order, method: method, amount: amount, recordedBy: recordedBy, note: note, recordedAt: at)
        }
        throw APIError.internal
    }
}
