import Foundation
import FulfilmentDomain
import OpenAPIRuntime
import QRReceipt

extension API {

    func checkout(_ input: Operations.Checkout.Input) async throws -> Operations.Checkout.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let method: PaymentMethod = body.paymentMethod == .prepaid ? .prepaid : .payAtCollection
        let result = try await services.checkout.run(
            caller: try Caller.current, method: method, pickupSlot: body.pickupSlot, now: services.clock(),
            idempotencyKey: input.headers.idempotencyKey, logger: logger)
        if result.created { ServiceMetrics.checkoutPlaced() }
        let payload = try Components.Schemas.Order(result.order, for: result.customer)
        return result.created ? .created(.init(body: .json(payload))) : .ok(.init(body: .json(payload)))
    }

    func listOrders(_ input: Operations.ListOrders.Input) async throws -> Operations.ListOrders.Output {
        let identity = try Identity.required
        let page = try await services.orders.list(
            customer: identity.userID, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map { try .init($0, ownList: true) }, nextCursor: page.nextCursor))))
    }

    func listStoreOrders(_ input: Operations.ListStoreOrders.Input) async throws -> Operations.ListStoreOrders.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let scope = try StoreScope(staff: try Identity.required)
        let status = input.query.status.flatMap { OrderStatus(rawValue: $0.rawValue) }
        let limit = try pageSize(input.query.limit)
        let page =
            if let q = input.query.q {
                try await services.orders.search(
                    q, of: store, in: scope, status: status, limit: limit, cursor: input.query.cursor, logger: logger)
            } else {
                try await services.orders.board(
                    of: store, in: scope, status: status, limit: limit, cursor: input.query.cursor, logger: logger)
            }
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map { try .init($0, ownList: false) }, nextCursor: page.nextCursor))))
    }

    func getOrder(_ input: Operations.GetOrder.Input) async throws -> Operations.GetOrder.Output {
        .ok(.init(body: .json(try .init(try await visibleOrder(input.path.orderId), for: try Identity.required))))
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
        let identity = try Identity.required
        let order = try await services.orderTransitions.cancelByCustomer(
            order: id, reason: try OrderTransitions.reason(reason), by: identity.userID, logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    /// Issue 48: the customer's change of their order's lines, bounded before anything else (`OrderChange`).
    func changeOrderLines(_ input: Operations.ChangeOrderLines.Input) async throws -> Operations.ChangeOrderLines.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let change = try OrderChange(
            checking: try body.lines.map { line in
                guard let product = ProductID(line.productId) else {
                    throw APIError.invalidField("productId", "A product id is a UUID.")
                }
                return OrderChange.Line(productID: product, quantity: line.quantity, shownPrice: line.unitPrice)
            })
        let order = try await services.orderChanges.change(order: id, change, by: identity.userID, logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    func transitionOrder(_ input: Operations.TransitionOrder.Input) async throws -> Operations.TransitionOrder.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let target = try OrderStatus.matching(body.to.rawValue)
        let identity = try Identity.required
        let bags = try body.bags.map { try $0.map { zone in try BagZone.matching(zone.rawValue) } }
        let order = try await services.orderTransitions.move(
            order: id, to: target, reason: try OrderTransitions.reason(body.reason), bags: bags, by: identity.userID,
            in: try StoreScope(staff: identity), logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    /// The order, if the caller is its customer or staff of its store; otherwise 404, so
    /// nobody learns that someone else's order exists.
    func visibleOrder(_ text: String) async throws -> Order {
        try await services.orders.order(text, visibleTo: try Identity.required, logger: logger)
    }

    /// The receipt's QR, for its customer only: the access table already refuses staff (a
    /// token in staff hands would let the scan hand over without the customer), and another
    /// customer's order is 404. Staff re-issue a lost receipt with `reissueReceipt`, audited.
    private func receiptCode(_ orderID: String) async throws -> QRCode {
        let identity = try Identity.required
        guard let id = OrderID(orderID) else { throw OrderError.orderNotFound }
        return try QRCode.encode(try await services.orders.receiptToken(of: id, customer: identity.userID, logger: logger))
    }

    func reissueReceipt(_ input: Operations.ReissueReceipt.Input) async throws -> Operations.ReissueReceipt.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        guard let reason = try OrderTransitions.reason(body.reason) else {
            throw APIError.invalidField("reason", "Say why the receipt is issued again (e.g. \"customer's phone is flat\").")
        }
        let identity = try Identity.required
        let reissue = try await services.receipts.reissue(
            order: id, reason: reason, by: identity.userID, in: try StoreScope(staff: identity), logger: logger)
        let png = try QRCode.encode(reissue.token.text).png(scale: 8)
        return .created(
            .init(
                body: .json(
                    .init(
                        orderId: id.description, orderNumber: reissue.order.number, customerName: reissue.order.customerName,
                        pickupToken: reissue.token.text, pickupCode: PickupShortCode.printed(PickupShortCode.of(reissue.token.text)),
                        tokenExpiresAt: reissue.token.claims.expiresAt,
                        receiptPng: Base64EncodedData(png), reissuedAt: reissue.reissuedAt, reissuedBy: identity.userID.description,
                        reason: reason))))
    }

}

extension Components.Schemas.Money {
    init(_ money: Money) { self.init(amount: money.amount, currency: money.currency) }
}

extension Components.Schemas.Order {
    /// The order as `viewer` sees it: only its customer gets the pickup token and receipt
    /// links; staff find an order by its number and name, and the customer's QR proves they came.
    init(_ order: Order, for viewer: Identity) throws {
        let isCustomer = viewer.userID == order.customerID
        let currency = order.total.currency
        let receipt = "/v1/orders/\(order.id)/receipt"
        let refunds = LineRefunds(order)
        self.init(
            id: order.id.description, number: order.number, storeId: order.storeID.description,
            customerId: order.customerID.description, customerName: order.customerName,
            status: .init(rawValue: order.status.rawValue)!, progress: order.status.progress,
            paymentMethod: .init(rawValue: order.paymentMethod.rawValue)!,
            paymentStatus: .init(rawValue: order.paymentStatus.rawValue)!,
            total: .init(order.total), subtotal: .init(order.subtotal),
            discount: .init(Money(amount: order.discount, currency: currency)), amountDue: .init(order.amountDue),
            refundDue: order.refundDueAmount > 0 ? .init(Money(amount: order.refundDueAmount, currency: currency)) : nil,
            lines: try order.lines.map { line in
                .init(
                    productId: line.productID.description, name: line.name, quantity: line.quantity,
                    unitPrice: .init(amount: line.unitPrice, currency: currency),
                    lineTotal: .init(amount: line.removed ? 0 : line.lineTotal, currency: currency), pickedQuantity: line.pickedQuantity,
                    held: line.held, amount: .init(amount: line.amount, currency: currency), minimumAge: line.minimumAge,
                    removed: line.removed ? true : nil,
                    discount: .init(amount: line.discount, currency: currency), substitution: try .init(line.substitution),
                    substitutedQuantity: line.substitutedQuantity,
                    substitute: try line.substitute.map {
                        .init(
                            id: $0.id.description, replacesProductId: $0.replaces.description,
                            status: try .matching($0.status.rawValue), decidedAt: $0.decidedAt)
                    },
                    taxClass: try line.tax.map { try .matching($0.taxClass.rawValue) },
                    taxRateBasisPoints: line.tax?.rateBasisPoints, refunded: .init(amount: line.refunded, currency: currency),
                    refundable: .init(amount: refunds.amount(of: line.productID), currency: currency))
            },
            history: order.history.map { event in
                .init(
                    from: event.from?.rawValue, to: .init(rawValue: event.to.rawValue)!, by: event.actorID?.description,
                    byName: event.actorName, at: event.at, reason: event.reason, kind: .init(rawValue: event.kind.rawValue))
            },
            placedAt: order.createdAt, packagedAt: order.packagedAt, deliveringAt: order.deliveringAt,
            completedAt: order.completedAt, cancelledAt: order.cancelledAt, paidAt: order.paidAt,
            collectedAt: order.collectedAt, collectedBy: order.collectedBy?.description,
            pickupToken: isCustomer ? order.pickup?.text : nil,
            pickupCode: isCustomer ? order.pickup.map { PickupShortCode.printed(PickupShortCode.of($0.text)) } : nil,
            tokenExpiresAt: order.pickup?.expiresAt,
            receiptUrl: isCustomer && order.pickup != nil ? receipt + ".png" : nil,
            receiptSvgUrl: isCustomer && order.pickup != nil ? receipt + ".svg" : nil)
        self.idCheck = order.idCheck.map(Components.Schemas.IDCheck.init)
        self.pickupSlot = order.pickupSlot.map { .init($0, zone: order.pickupTimeZone) }
        self.arrival = order.arrival.map { .init(at: $0.at, bay: $0.bay, vehicle: $0.vehicle, note: $0.note) }
        self.readyBy = order.timeliness?.readyBy
        self.timeliness = try order.timeliness.map { try .matching($0.status.rawValue) }
        self.collector = order.collector.map { .init(passId: $0.id.uuidString.lowercased(), name: $0.name) }
        self.changeable = order.changeable
        self.bags = try order.bags.bags.map(Components.Schemas.OrderBag.init)
        if order.bags.placesKept, !order.bags.bags.isEmpty {
            self.bagsStaged = .init(staged: order.bags.staged, of: order.bags.bags.count)
        }
        self.readyForPickup = order.readyForPickup
        if let seller = order.taxSeller, let breakdown = order.taxBreakdown {
            self.tax = .init(
                name: seller.name, number: seller.number, seller: seller.seller, address: seller.address,
                rates: breakdown.rates.map {
                    .init(
                        rateBasisPoints: $0.rateBasisPoints, exempt: $0.exempt, net: .init(amount: $0.net, currency: currency),
                        tax: .init(amount: $0.tax, currency: currency), gross: .init(amount: $0.gross, currency: currency))
                }, tax: .init(amount: breakdown.tax, currency: currency))
        }
    }
}

extension Components.Schemas.OrderSummary {
    /// `ownList`: the customer's own list, which links each receipt; the store's board does not.
    init(_ order: OrderSummary, ownList: Bool) throws {
        self.init(
            id: order.id.description, number: order.number, storeId: order.storeID.description, customerName: order.customerName,
            status: .init(rawValue: order.status.rawValue)!, progress: order.status.progress,
            paymentMethod: .init(rawValue: order.paymentMethod.rawValue)!,
            paymentStatus: .init(rawValue: order.paymentStatus.rawValue)!, total: .init(order.total),
            itemCount: order.itemCount, placedAt: order.createdAt, receiptUrl: ownList ? "/v1/orders/\(order.id)/receipt.png" : nil,
            pickupSlot: order.pickupSlot.map { .init($0, zone: nil) },
            arrival: order.arrival.map { .init(at: $0.at, bay: $0.bay, vehicle: $0.vehicle, note: $0.note) },
            openSubstitutions: order.openSubstitutions > 0 ? order.openSubstitutions : nil,
            shortLines: order.shortLines > 0 ? order.shortLines : nil, readyBy: order.timeliness?.readyBy,
            timeliness: try order.timeliness.map { try .matching($0.status.rawValue) })
    }
}
