import Foundation
import FulfilmentDomain

extension API {

    func recordPayment(_ input: Operations.RecordPayment.Input) async throws -> Operations.RecordPayment.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let payment = try await services.payments.record(
            order: id, method: body.method == .cash ? .cash : .card,
            amount: Money(amount: body.amount.amount, currency: body.amount.currency), by: identity.userID,
            in: try StoreScope(staff: identity), logger: logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        id: payment.id.description, orderId: payment.orderID.description,
                        method: .init(rawValue: payment.method)!, amount: .init(payment.amount), recordedAt: payment.recordedAt))))
    }

    /// The order's payment and refunds, for its customer or staff of its store (`Payments`).
    func listOrderPayments(_ input: Operations.ListOrderPayments.Input) async throws -> Operations.ListOrderPayments.Output {
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let movements = try await services.payments.movements(of: id, visibleTo: try Identity.required, orders: services.orders, logger: logger)
        return .ok(.init(body: .json(.init(items: try movements.map(Components.Schemas.MoneyMovement.init), nextCursor: nil))))
    }

    /// Reached only through `WebhookSignatureMiddleware`, which has checked the signature over
    /// these very bytes.
    func receivePaymentWebhook(_ input: Operations.ReceivePaymentWebhook.Input) async throws -> Operations.ReceivePaymentWebhook.Output {
        guard case .json(let event) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard (1...255).contains(event.id.utf8.count) else { throw APIError.invalidField("id", "The event id must be 1 to 255 characters.") }
        let result = try await services.paymentWebhook.receive(
            eventID: event.id, type: event._type, orderID: event.orderId.flatMap(OrderID.init),
            amount: event.amount.map { Money(amount: $0.amount, currency: $0.currency) }, logger: logger)
        return .ok(.init(body: .json(.init(eventId: result.eventID, outcome: result.outcome, duplicate: result.duplicate))))
    }

    /// A manager of the order's store records money paid back at the desk (`Refunds`).
    func recordRefund(_ input: Operations.RecordRefund.Input) async throws -> Operations.RecordRefund.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        guard (1...10_000_000_000).contains(body.amount.amount) else {
            throw APIError.invalidField("amount", "The amount is 1 to 10000000000 minor units.")
        }
        let lines = try body.lines.map(Self.refundLines)
        let identity = try Identity.required
        let refund = try await services.refunds.record(
            order: id, amount: Money(amount: body.amount.amount, currency: body.amount.currency), lines: lines, note: body.note,
            by: identity.userID, in: try StoreScope(staff: identity), logger: logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        id: refund.id.description, orderId: refund.orderID.description, method: .init(rawValue: refund.method)!,
                        amount: .init(refund.amount), recordedBy: refund.recordedBy?.description, note: refund.note, recordedAt: refund.recordedAt,
                        lines: refund.lines.map { .init(productId: $0.productID.description, amount: $0.amount) }))))
    }

    /// A refund's lines as sent, each bounded by its meaning before the service adds them up.
    static func refundLines(_ lines: [Components.Schemas.RefundLine]) throws(APIError) -> [LineRefunds.Owing] {
        guard (1...100).contains(lines.count) else { throw .invalidField("lines", "A refund pays back 1 to 100 lines.") }
        return try lines.map { line throws(APIError) in
            guard let product = ProductID(line.productId) else { throw .invalidField("lines", "Each line's productId is a product's id.") }
            guard (1...10_000_000_000).contains(line.amount) else {
                throw .invalidField("lines", "Each line's amount is 1 to 10000000000 minor units.")
            }
            return LineRefunds.Owing(productID: product, amount: line.amount)
        }
    }
}

extension Components.Schemas.MoneyMovementList: CursorList {}

extension Components.Schemas.MoneyMovement {
    init(_ movement: MoneyMovement) throws {
        self.init(
            id: movement.id.uuidString.lowercased(), kind: movement.kind == .payment ? .payment : .refund,
            method: try .stored(movement.method, column: "\(movement.kind.rawValue)s.method"), amount: .init(movement.amount),
            recordedBy: movement.recordedBy, note: movement.note, at: movement.at)
    }
}
