import Foundation
import FulfilmentDomain
import OpenAPIRuntime
import PickList

extension API {

    func createPickList(_ input: Operations.CreatePickList.Input) async throws -> Operations.CreatePickList.Output {
        let identity = try Identity.required
        // The path's store is the caller's (AccessPolicy refused any other), so the scope is it.
        let scope = try StoreScope(staff: identity)
        var maxOrders: Int?
        var orderIDs: [FulfilmentDomain.OrderID]?
        if case .json(let body) = input.body {
            maxOrders = body.maxOrders
            orderIDs = try body.orderIds.map { ids in
                try ids.map { id in
                    guard let orderID = OrderID(id) else { throw APIError.invalidField("orderIds", "Order ids are UUIDs.") }
                    return orderID
                }
            }
        }
        let pickList = try await services.pickLists.create(in: scope, maxOrders: maxOrders, orderIDs: orderIDs, by: identity, logger: logger)
        return .created(.init(body: .json(try .init(pickList))))
    }

    func listPickLists(_ input: Operations.ListPickLists.Input) async throws -> Operations.ListPickLists.Output {
        let open = try await services.pickLists.open(in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: open.map { .init(id: $0.id.description, createdAt: $0.createdAt, orderCount: $0.orderCount) }, nextCursor: nil))))
    }

    func getPickList(_ input: Operations.GetPickList.Input) async throws -> Operations.GetPickList.Output {
        let pickList = try await services.pickLists.pickList(
            try PickListID.parse(input.path.pickListId), in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(.init(body: .json(try .init(pickList))))
    }

    func getPickListHTML(_ input: Operations.GetPickListHTML.Input) async throws -> Operations.GetPickListHTML.Output {
        let pickList = try await services.pickLists.pickList(
            try PickListID.parse(input.path.pickListId), in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(.init(body: .html(HTTPBody(try pickList.route().htmlSheet(header: pickList.header)))))
    }

    func getPickListText(_ input: Operations.GetPickListText.Input) async throws -> Operations.GetPickListText.Output {
        guard let width = PrinterWidth(rawValue: input.query.width?.rawValue ?? 80) else { throw PickListError.invalidWidth }
        let pickList = try await services.pickLists.pickList(
            try PickListID.parse(input.path.pickListId), in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(.init(body: .plainText(HTTPBody(try pickList.route().textSheet(header: pickList.header, width: width)))))
    }

    func recordPick(_ input: Operations.RecordPick.Input) async throws -> Operations.RecordPick.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = OrderID(body.orderId) else { throw APIError.invalidField("orderId", "orderId is a UUID.") }
        let product = try body.productId.map { id in
            guard let productID = ProductID(id) else { throw APIError.invalidField("productId", "productId is a UUID.") }
            return productID
        }
        let identity = try Identity.required
        let outcome = try await services.pickLists.pick(
            on: try PickListID.parse(input.path.pickListId), order: order, productID: product, barcode: body.barcode,
            quantity: body.quantity, short: body.short ?? false, in: try StoreScope(staff: identity), by: identity, logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        ordered: outcome.ordered, picked: outcome.picked, remaining: outcome.ordered - outcome.picked, short: outcome.short))))
    }

    func completePickList(_ input: Operations.CompletePickList.Input) async throws -> Operations.CompletePickList.Output {
        let identity = try Identity.required
        let completion = try await services.pickLists.complete(
            try PickListID.parse(input.path.pickListId), in: try StoreScope(staff: identity), by: identity, logger: logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        packaged: completion.packaged.map(\.description), leftPending: completion.leftPending.map(\.description)))))
    }

    /// A pick list id from a path; a malformed one names no list (404).
}

extension Components.Schemas.PickListDetail {
    init(_ pickList: PickListRecord) throws {
        let route = try pickList.route()
        let progress = pickList.lineIndex
        self.init(
            id: pickList.id.description, storeId: pickList.storeID.description,
            status: pickList.isOpen ? .open : .completed, createdAt: pickList.createdAt,
            totes: route.totes.map { .init(label: $0.label, orderId: $0.orderID.rawValue, orderNumber: $0.orderNumber) },
            stops: try route.stops.map { stop in
                Components.Schemas.PickStop(
                    sequence: stop.sequence, productId: stop.productID.rawValue, name: stop.productName, sku: stop.sku,
                    barcode: stop.barcode,
                    location: try stop.location.map {
                        .init(
                            aisleCode: $0.aisle.code, aisleName: $0.aisle.name,
                            zone: try .matching($0.zone.rawValue), bay: $0.bay, shelf: $0.shelf)
                    },
                    quantity: stop.quantity,
                    allocations: try stop.allocations.map { allocation in
                        let line = progress.line(order: allocation.tote.orderID, product: stop.productID)
                        return .init(
                            tote: allocation.tote.label, orderId: allocation.tote.orderID.rawValue,
                            orderNumber: allocation.tote.orderNumber, quantity: allocation.quantity,
                            picked: line?.picked ?? 0, short: line?.short ?? false,
                            substitution: try line.map { try .init($0.substitution) }, substituted: line?.substituted ?? 0)
                    })
            })
    }
}
