import Foundation
import HTTPTypes

/// Everything that can go wrong with carts, checkout, orders, collections and payments, and
/// how each looks over HTTP: the one place these errors meet status codes.
public enum OrderError: Error, APIErrorConvertible, Equatable {
    public struct Shortage: Sendable, Equatable {
        public var productID: ProductID
        public var requested: Int
        public var available: Int
    }

    case orderNotFound
    case productNotFound
    case storeNotFound
    case productDiscontinued(ProductID)
    case invalidQuantity
    /// An order search (`q`) that is empty or too long (`OrderSearch`).
    case invalidSearch
    case noStoreChosen
    case cartEmpty
    case insufficientStock([Shortage])
    /// Lines whose price is not the one the customer was last shown (a sale started or ended, the
    /// store's price changed since they read the cart): nothing was ordered (`place_order`).
    case priceChanged([PriceChange])
    case missingIdempotencyKey
    case totalTooLarge
    case idempotencyKeyReused
    /// The cart's coupon cannot be redeemed: checkout checks it again holding its row's lock
    /// (`coupon_refusal`), so a coupon used up since the cart showed it is refused here, never
    /// silently dropped: the same code and details as PUT /v1/cart/coupon's (`CouponRefusal`).
    case couponRefused(CouponRefusal)
    case invalidTransition(from: OrderStatus, to: OrderStatus, allowed: [OrderStatus])
    /// Issue 48: lines change only while the order is pending (`status` is what it is now).
    case notChangeable(OrderStatus)
    /// Issue 48: the order joined a pick list (the cut-off); its lines no longer change.
    case lockedForPicking
    /// Issue 48: a change that would leave the order no line (cancel it instead).
    case wouldBeEmpty
    /// Issue 48: a change naming one product twice.
    case lineNamedTwice(ProductID)
    case completedOnlyByScan(from: OrderStatus, allowed: [OrderStatus])
    // Collections.
    case invalidToken(reason: String)
    case tokenExpired(at: Date)
    case wrongStore
    case notReady(OrderStatus)
    /// The ready message was sent less than a minute ago (`ReadyNotifications`).
    case notificationTooSoon(retryAfter: Int)
    case alreadyCollected(at: Date, by: String)
    case orderCancelled
    case paymentRequired(amount: Int64, currency: String)
    // Payments.
    case alreadyPaid
    case prepaidOrder
    case amountMismatch(due: Int64, currency: String)
    // Refunds.
    case noRefundDue(PaymentStatus)
    case refundMismatch(due: Int64, currency: String)
    /// A refund by line named a line twice (`LineRefunds.check`).
    case refundLineTwice(ProductID)
    /// A refund by line asked more of a line than it may give back (nothing, for a product the
    /// order does not have or a line owing nothing).
    case refundLineTooLarge(ProductID, refundable: Int64, currency: String)
    /// A refund by line whose amount is not the sum of its lines.
    case refundLinesMismatch(sum: Int64, currency: String)
    case noteTooLong
    case webhookNotConfigured
    case invalidSignature
    case staleTimestamp
    /// A webhook body over `PaymentWebhookSignature.maximumBody`.
    case webhookBodyTooLarge
    /// A row the statement itself wrote or the schema guarantees was not there: a bug, answered
    /// 500 (`what` is for the log only).
    case unexpectedlyMissing(String)

    public var apiError: APIError {
        switch self {
        case .orderNotFound: .notFound("The order")
        case .productNotFound: .notFound("The product")
        case .storeNotFound: .notFound("The store")
        case .productDiscontinued(let id):
            APIError(.conflict, "product_discontinued", "That product is discontinued.", details: ["productId": .string(id.description)])
        case .invalidQuantity:
            APIError(
                .unprocessableContent, "invalid_field", "The quantity must be a whole number from 0 to 99 (0 removes the line).",
                details: ["field": "quantity"])
        case .noStoreChosen:
            APIError(.conflict, "no_store_chosen", "Choose the store to collect from first: PUT /v1/cart with {\"storeId\": ...}.")
        case .cartEmpty:
            APIError(.conflict, "cart_empty", "The cart is empty.")
        case .insufficientStock(let shortages):
            APIError(
                .conflict, "insufficient_stock", "Not enough stock for \(shortages.count) line(s); nothing was reserved.",
                details: [
                    "lines": .array(
                        shortages.map {
                            ["productId": .string($0.productID.description), "requested": .int($0.requested), "available": .int($0.available)]
                        })
                ])
        case .priceChanged(let lines):
            APIError(
                .conflict, "price_changed",
                "The price of \(lines.count) line(s) changed since you saw the cart; nothing was ordered. Read the cart to see the prices now.",
                details: ["lines": .array(lines.map(\.json))])
        case .totalTooLarge:
            APIError(.unprocessableContent, "total_too_large", "The order's total is too large to take; split it into smaller orders.")
        case .missingIdempotencyKey:
            APIError(
                .badRequest, "missing_idempotency_key", "Send an Idempotency-Key header (1 to 255 characters) with every checkout.",
                details: ["header": "Idempotency-Key"])
        case .idempotencyKeyReused:
            APIError(
                .unprocessableContent, "idempotency_key_reused",
                "This Idempotency-Key was already used for a different checkout request.")
        case .couponRefused(let refusal):
            APIError(.conflict, refusal.code, refusal.message, details: refusal.details)
        case .invalidTransition(let from, let to, let allowed):
            APIError(
                .conflict, "invalid_transition", "An order that is \(from.rawValue) cannot become \(to.rawValue).",
                details: ["status": .string(from.rawValue), "to": .string(to.rawValue), "allowed": .array(allowed.map { .string($0.rawValue) })])
        case .notChangeable(let status):
            APIError(
                .conflict, "order_not_changeable", "Only a pending order's lines can change.", details: ["status": .string(status.rawValue)])
        case .lockedForPicking:
            APIError(.conflict, "order_locked_for_picking", "The store has started picking this order; its lines can no longer change.")
        case .wouldBeEmpty:
            APIError(
                .unprocessableContent, "order_would_be_empty", "An order keeps at least one line; to remove them all, cancel the order.",
                details: ["field": "lines"])
        case .lineNamedTwice(let product):
            APIError.invalidField("lines", "Name each product once in a change; \(product) is named twice.")
        case .completedOnlyByScan(let from, let allowed):
            APIError(
                .conflict, "invalid_transition", "An order is completed only by scanning the customer's QR at collection.",
                details: ["status": .string(from.rawValue), "to": "completed", "allowed": .array(allowed.map { .string($0.rawValue) })])
        case .invalidToken(let reason):
            APIError(.unauthorized, "invalid_token", "This is not a valid pickup token.", details: ["reason": .string(reason)])
        case .tokenExpired(let at):
            APIError(
                .gone, "token_expired", "This pickup token has expired.",
                details: ["expiredAt": .string(at.formatted(.iso8601))])
        case .wrongStore:
            APIError(.forbidden, "wrong_store", "This order is collected at another store.")
        case .notReady(let status):
            APIError(.conflict, "not_ready", "The order is not ready for collection yet.", details: ["status": .string(status.rawValue)])
        case .notificationTooSoon(let seconds):
            APIError(
                .tooManyRequests, "notification_too_soon", "The ready message was sent less than a minute ago.",
                details: ["retryAfter": .int(seconds)], headers: [.retryAfter: String(seconds)])
        case .alreadyCollected(let at, let by):
            APIError(
                .conflict, "already_collected", "This order was already collected.",
                details: ["collectedAt": .string(at.formatted(.iso8601)), "collectedBy": .string(by)])
        case .orderCancelled:
            APIError(.conflict, "order_cancelled", "This order was cancelled.")
        case .paymentRequired(let amount, let currency):
            APIError(
                HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), "payment_required",
                "The order must be paid before it is handed over.",
                details: ["amountDue": ["amount": .int(Int(amount)), "currency": .string(currency)]])
        case .prepaidOrder:
            APIError(.conflict, "prepaid_order", "This order is paid online; the payment provider settles it, not the desk.")
        case .alreadyPaid:
            APIError(.conflict, "already_paid", "This order is already paid.")
        case .amountMismatch(let due, let currency):
            APIError(
                .unprocessableContent, "amount_mismatch", "The amount must equal the amount due.",
                details: ["field": "amount", "amountDue": ["amount": .int(Int(due)), "currency": .string(currency)]])
        case .noRefundDue(let status):
            APIError(.conflict, "no_refund_due", "This order owes the customer nothing.", details: ["paymentStatus": .string(status.rawValue)])
        case .refundMismatch(let due, let currency):
            APIError(
                .unprocessableContent, "amount_mismatch", "The refund must equal what is owed back.",
                details: ["field": "amount", "refundDue": ["amount": .int(Int(due)), "currency": .string(currency)]])
        case .refundLineTwice(let product):
            APIError.invalidField("lines", "Each line is paid back once in a refund; \(product) is named twice.")
        case .refundLineTooLarge(let product, let refundable, let currency):
            APIError(
                .unprocessableContent, "line_refund_too_large",
                refundable > 0
                    ? "That line can give back at most \(MoneyText.format(refundable, currency))."
                    : "That line owes nothing back.",
                details: [
                    "field": "lines", "productId": .string(product.description),
                    "refundable": ["amount": .int(Int(refundable)), "currency": .string(currency)],
                ])
        case .refundLinesMismatch(let sum, let currency):
            APIError(
                .unprocessableContent, "amount_mismatch", "The refund's amount must be the sum of its lines.",
                details: ["field": "amount", "linesTotal": ["amount": .int(Int(sum)), "currency": .string(currency)]])
        case .noteTooLong:
            .invalidField("note", "The note is at most 500 characters.")
        case .invalidSearch:
            .invalidField(
                "q", "Search for an order number, a name, an email address or a scanned receipt: 1 to \(OrderSearch.maximumLength) characters.")
        case .webhookNotConfigured:
            APIError(.serviceUnavailable, "webhook_not_configured", "No webhook secret is configured (FULFILMENT_WEBHOOK_SECRET).")
        case .invalidSignature:
            APIError(.unauthorized, "invalid_signature", "The webhook signature is missing or wrong.")
        case .staleTimestamp:
            APIError(.unauthorized, "stale_timestamp", "The webhook timestamp is missing or more than 5 minutes from now.")
        case .webhookBodyTooLarge:
            APIError(.contentTooLarge, "payload_too_large", "A webhook body is at most 64 KiB.")
        case .unexpectedlyMissing:
            .internal
        }
    }
}
