import Foundation
import OpenAPIRuntime
import QRReceipt

extension API {
    func checkout(_ input: Operations.Checkout.Input) async throws -> Operations.Checkout.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        let method: PaymentMethod = body.paymentMethod == .prepaid ? .prepaid : .payAtCollection
        let result = try await Checkout(database: database, signer: keyring.signer).run(
            customer: identity.userID, method: method, idempotencyKey: input.headers.idempotencyKey, logger: logger)
        let payload = Components.Schemas.Order(result.order)
        return result.created ? .created(.init(body: .json(payload))) : .ok(.init(body: .json(payload)))
    }

    func listOrders(_ input: Operations.ListOrders.Input) async throws -> Operations.ListOrders.Output {
        let identity = try Identity.required
        let page = try await OrderQueries.list(
            customer: identity.userID, limit: try pageSize(input.query.limit), cursor: input.query.cursor,
            on: database.client, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.OrderSummary.init), nextCursor: page.nextCursor))))
    }

    func listStoreOrders(_ input: Operations.ListStoreOrders.Input) async throws -> Operations.ListStoreOrders.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let page = try await OrderQueries.board(
            store: store, status: input.query.status.flatMap { OrderStatus(rawValue: $0.rawValue) },
            limit: try pageSize(input.query.limit), cursor: input.query.cursor, on: database.client, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.OrderSummary.init), nextCursor: page.nextCursor))))
    }

    func getOrder(_ input: Operations.GetOrder.Input) async throws -> Operations.GetOrder.Output {
        .ok(.init(body: .json(.init(try await visibleOrder(input.path.orderId)))))
    }

    func getReceiptPng(_ input: Operations.GetReceiptPng.Input) async throws -> Operations.GetReceiptPng.Output {
        let scale = input.query.scale ?? 8
        guard (1...100).contains(scale) else { throw APIError.invalidField("scale", "The scale must be between 1 and 100.") }
        let png = try await receiptCode(input.path.orderId).png(scale: scale)
        return .ok(.init(body: .png(HTTPBody(png))))
    }

    func getReceiptSvg(_ input: Operations.GetReceiptSvg.Input) async throws -> Operations.GetReceiptSvg.Output {
        let svg = try await receiptCode(input.path.orderId).svg()
        return .ok(.init(body: .imageSvgXml(HTTPBody(svg))))
    }

    func cancelOrder(_ input: Operations.CancelOrder.Input) async throws -> Operations.CancelOrder.Output {
        let reason = input.query.reason
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let order = try await OrderTransitions.cancelByCustomer(
            order: id, reason: try Self.reason(reason), by: try Identity.required, on: database, logger: logger)
        return .ok(.init(body: .json(.init(order))))
    }

    func transitionOrder(_ input: Operations.TransitionOrder.Input) async throws -> Operations.TransitionOrder.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let target = OrderStatus(rawValue: body.to.rawValue) ?? .pending
        let order = try await OrderTransitions.move(
            order: id, to: target, reason: try Self.reason(body.reason), by: try Identity.required, on: database, logger: logger)
        return .ok(.init(body: .json(.init(order))))
    }

    /// The order, if the caller is its customer or staff of its store; otherwise 404, so
    /// nobody learns that someone else's order exists.
    func visibleOrder(_ text: String) async throws -> Order {
        let identity = try Identity.required
        guard let id = OrderID(text), let order = try await OrderQueries.order(id: id, on: database.client, logger: logger),
            order.isVisible(to: identity)
        else { throw OrderError.orderNotFound }
        return order
    }

    private func receiptCode(_ orderID: String) async throws -> QRCode {
        guard let token = try await visibleOrder(orderID).pickup?.text else { throw OrderError.orderNotFound }
        return try QRCode.encode(token)
    }

    static func reason(_ text: String?) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= 500 else { throw APIError.invalidField("reason", "The reason must be at most 500 characters.") }
        return text
    }
}

extension Components.Schemas.Money {
    init(_ money: Money) { self.init(amount: money.amount, currency: money.currency) }
}

extension Components.Schemas.Order {
    init(_ order: Order) {
        let currency = order.total.currency
        let receipt = "/v1/orders/\(order.id)/receipt"
        self.init(
            id: order.id.description, number: order.number, storeId: order.storeID.description,
            customerId: order.customerID.description, customerName: order.customerName,
            status: .init(rawValue: order.status.rawValue)!, progress: order.status.progress,
            paymentMethod: .init(rawValue: order.paymentMethod.rawValue)!,
            paymentStatus: .init(rawValue: order.paymentStatus.rawValue)!,
            total: .init(order.total), amountDue: .init(order.amountDue),
            lines: order.lines.map { line in
                .init(productId: line.productID.description, name: line.name, quantity: line.quantity,
                    unitPrice: .init(amount: line.unitPrice, currency: currency),
                    lineTotal: .init(amount: line.removed ? 0 : line.lineTotal, currency: currency), pickedQuantity: line.pickedQuantity,
                    minimumAge: line.minimumAge, removed: line.removed ? true : nil)
            },
            history: order.history.map { event in
                .init(from: event.from?.rawValue, to: .init(rawValue: event.to.rawValue)!, by: event.actorID?.description,
                    byName: event.actorName, at: event.at, reason: event.reason)
            },
            placedAt: order.createdAt, packagedAt: order.packagedAt, deliveringAt: order.deliveringAt,
            completedAt: order.completedAt, cancelledAt: order.cancelledAt, paidAt: order.paidAt,
            collectedAt: order.collectedAt, collectedBy: order.collectedBy?.description,
            pickupToken: order.pickup?.text, tokenExpiresAt: order.pickup?.expiresAt,
            receiptUrl: order.pickup == nil ? nil : receipt + ".png", receiptSvgUrl: order.pickup == nil ? nil : receipt + ".svg")
        self.idCheck = order.idCheck.map(Components.Schemas.IDCheck.init)
    }
}

extension Components.Schemas.OrderSummary {
    init(_ order: OrderSummary) {
        self.init(
            id: order.id.description, number: order.number, storeId: order.storeID.description, customerName: order.customerName,
            status: .init(rawValue: order.status.rawValue)!, progress: order.status.progress,
            paymentMethod: .init(rawValue: order.paymentMethod.rawValue)!,
            paymentStatus: .init(rawValue: order.paymentStatus.rawValue)!, total: .init(order.total),
            itemCount: order.itemCount, placedAt: order.createdAt, receiptUrl: "/v1/orders/\(order.id)/receipt.png")
    }
}

