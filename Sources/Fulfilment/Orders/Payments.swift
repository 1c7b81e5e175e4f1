import Crypto
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import PostgresNIO

/// A payment recorded against an order.
public struct Payment: Sendable, Equatable {
    public var id: UUID
    public var orderID: OrderID
    public var method: String
    public var amount: Money
    public var recordedAt: Date
}

/// Money in: staff recording a desk payment for a `pay_at_collection` order, and the payment
/// provider's webhook for `prepaid` ones. One payment settles an order in full (a UNIQUE
/// constraint keeps it to one). No card data ever reaches this service.
enum Payments {
    enum DeskMethod: String { case card, cash }

    /// Staff of the order's store record a payment; the amount must equal the amount due.
    static func record(
        order id: OrderID, method: DeskMethod, amount: Money, by staff: Identity, on database: Database, logger: Logger
    ) async throws -> Payment {
        try await database.transaction(logger: logger) { connection in
            guard let order = try await lockedOrder(id, on: connection, logger: logger), staff.worksAt(order.store) else {
                throw OrderError.orderNotFound
            }
            let (store, total, currency) = (order.store.rawValue, order.total, order.currency)
            guard order.status != .cancelled else { throw OrderError.orderCancelled }
            guard order.paymentStatus == .unpaid else { throw OrderError.alreadyPaid }
            // The provider charged for it at checkout: taking money again at the desk would charge twice.
            guard order.method != .prepaid else { throw OrderError.prepaidOrder }
            guard amount.amount == total, amount.currency == currency else {
                throw OrderError.amountMismatch(due: total, currency: currency)
            }
            return try await settle(
                order: id, store: StoreID(store), method: method.rawValue, amount: Money(amount: total, currency: currency),
                recordedBy: staff.userID, providerEventID: nil, on: connection, logger: logger)
        }
    }

    /// An order's payment facts, its row locked for the payment.
    struct PayableOrder {
        var store: StoreID
        var status: OrderStatus
        var method: PaymentMethod
        var paymentStatus: PaymentStatus
        var total: Int64
        /// What was ordered at checkout, before any short pick lowered the total.
        var ordered: Int64
        var currency: String
    }

    static func lockedOrder(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> PayableOrder? {
        let rows = try await connection.run(
            """
            SELECT o.store_id, o.status, o.payment_method, o.payment_status, o.total_amount, o.currency::text,
                   (SELECT coalesce(sum(l.unit_price * l.quantity), 0)::int8 FROM order_lines l WHERE l.order_id = o.id)
            FROM orders o WHERE o.id = \(id.rawValue) FOR UPDATE
            """, logger: logger)
        for try await row in rows.decode((UUID, String, String, String, Int64, String, Int64).self) {
            return PayableOrder(
                store: StoreID(row.0), status: OrderStatus(rawValue: row.1) ?? .pending,
                method: PaymentMethod(rawValue: row.2) ?? .payAtCollection,
                paymentStatus: PaymentStatus(rawValue: row.3) ?? .unpaid, total: row.4, ordered: row.6, currency: row.5)
        }
        return nil
    }

    /// Records the payment and settles the order; what was paid beyond what the customer now
    /// gets (packed short, or cancelled) becomes `refund_due`.
    private static func settle(
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
        var payment: Payment?
        for try await (paymentID, at) in rows.decode((UUID, Date).self) {
            payment = Payment(id: paymentID, orderID: id, method: method, amount: amount, recordedAt: at)
        }
        guard let payment else { throw APIError.internal }
        try await OrderQueries.reconcileRefund(of: id, on: connection, logger: logger)
        return payment
    }

    /// What the webhook did with an event.
    struct WebhookOutcome: Sendable {
        var eventID: String
        var outcome: String
        var duplicate: Bool
    }

    /// Applies one provider event (its signature already checked by `WebhookSignature`), once:
    /// a replayed event id answers what the first delivery did and changes nothing.
    /// `payment.succeeded` settles a prepaid order when the amount matches; `refund.succeeded`
    /// records the provider's refund of an order owing one (`Refunds`); anything else is
    /// recorded and ignored, answered 200 so the provider stops retrying.
    static func receive(
        eventID: String, type: String, orderID: OrderID?, amount: Money?, on database: Database, logger: Logger
    ) async throws -> WebhookOutcome {
        try await database.transaction(logger: logger) { connection in
            let inserted = try await connection.run(
                """
                INSERT INTO payment_webhook_events (event_id, type, order_id, outcome)
                VALUES (\(eventID), \(type), \(orderID?.rawValue), 'processing')
                ON CONFLICT (event_id) DO NOTHING
                RETURNING 1
                """, logger: logger)
            var fresh = false
            for try await _ in inserted { fresh = true }
            if !fresh {
                let rows = try await connection.run(
                    "SELECT outcome FROM payment_webhook_events WHERE event_id = \(eventID)", logger: logger)
                var outcome = "unknown"
                for try await row in rows.decode(String.self) { outcome = row }
                return WebhookOutcome(eventID: eventID, outcome: outcome, duplicate: true)
            }
            let outcome = try await apply(type: type, orderID: orderID, amount: amount, eventID: eventID, on: connection, logger: logger)
            try await connection.run(
                "UPDATE payment_webhook_events SET outcome = \(outcome) WHERE event_id = \(eventID)", logger: logger)
            return WebhookOutcome(eventID: eventID, outcome: outcome, duplicate: false)
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
        guard let order = try await lockedOrder(orderID, on: connection, logger: logger) else { return "unknown_order" }
        guard order.paymentStatus == .unpaid else { return "already_paid" }
        // A prepaid order is paid for what was ordered: a short pick or a cancellation since
        // checkout does not change what the provider charged; the difference is owed back.
        let expected = order.method == .prepaid ? order.ordered : order.total
        guard amount.amount == expected, amount.currency == order.currency else { return "amount_mismatch" }
        guard order.status != .cancelled || order.method == .prepaid else { return "order_cancelled" }
        _ = try await settle(
            order: orderID, store: order.store, method: "provider", amount: amount, recordedBy: nil,
            providerEventID: eventID, on: connection, logger: logger)
        return order.status == .cancelled || expected != order.total ? "paid_refund_due" : "paid"
    }
}

/// The payment provider's webhook signature: `Webhook-Signature: v1=<hex>` where `<hex>` is
/// the lowercase hex HMAC-SHA256, keyed with the shared secret, of
/// `<Webhook-Timestamp> + "." + <raw request body>`; `Webhook-Timestamp` is Unix seconds and
/// must be within 5 minutes of now (either way), so a captured request cannot be replayed later.
enum WebhookSignature {
    static let timestampHeader = HTTPField.Name("Webhook-Timestamp")!
    static let signatureHeader = HTTPField.Name("Webhook-Signature")!
    static let tolerance: TimeInterval = 300
    static let maximumBody = 64 * 1024

    static func signature(secret: String, timestamp: String, body: some Sequence<UInt8>) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(timestamp.utf8) + [UInt8(ascii: ".")] + Array(body), using: SymmetricKey(data: Data(secret.utf8)))
        return "v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Throws `stale_timestamp` or `invalid_signature`; compares in constant time.
    static func verify(secret: String, timestamp: String?, signature: String?, body: [UInt8], now: Date = Date()) throws(OrderError) {
        guard let timestamp, let seconds = Int64(timestamp), abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            throw .staleTimestamp
        }
        guard let signature, signature.hasPrefix("v1="), let mac = hexBytes(signature.dropFirst(3)),
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Array(timestamp.utf8) + [UInt8(ascii: ".")] + body, using: SymmetricKey(data: Data(secret.utf8)))
        else { throw .invalidSignature }
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: chars[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// Checks the webhook's signature over the raw body before the OpenAPI layer decodes it, and
/// passes on exactly the bytes it checked. Only for `receivePaymentWebhook`.
struct WebhookSignatureMiddleware: ServerMiddleware {
    let secret: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "receivePaymentWebhook" else { return try await next(request, body, metadata) }
        guard let secret, !secret.isEmpty else { throw OrderError.webhookNotConfigured }
        let bytes: [UInt8]
        do {
            if let body { bytes = try await [UInt8](collecting: body, upTo: WebhookSignature.maximumBody) } else { bytes = [] }
        } catch {
            throw APIError(.contentTooLarge, "payload_too_large", "A webhook body is at most 64 KiB.")
        }
        try WebhookSignature.verify(
            secret: secret, timestamp: request.headerFields[WebhookSignature.timestampHeader],
            signature: request.headerFields[WebhookSignature.signatureHeader], body: bytes)
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
