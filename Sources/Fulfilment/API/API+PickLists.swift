import Foundation
import OpenAPIRuntime
import PickList

extension API {
    var pickLists: PickLists { PickLists(database: database) }

    func createPickList(_ input: Operations.CreatePickList.Input) async throws -> Operations.CreatePickList.Output {
        let identity = try Identity.required
        guard let store = StoreID(input.path.storeId) else { throw APIError.notFound("That store") }
        var maxOrders: Int?
        var orderIDs: [UUID]?
        if case .json(let body) = input.body {
            maxOrders = body.maxOrders
            orderIDs = try body.orderIds.map { ids in
                try ids.map { id in
                    guard let uuid = UUID(uuidString: id) else { throw APIError.invalidField("orderIds", "Order ids are UUIDs.") }
                    return uuid
                }
            }
        }
        let batch = try await pickLists.create(store: store, maxOrders: maxOrders, orderIDs: orderIDs, by: identity, logger: logger)
        return .created(.init(body: .json(try .init(batch))))
    }

    func listPickLists(_ input: Operations.ListPickLists.Input) async throws -> Operations.ListPickLists.Output {
        guard let store = StoreID(input.path.storeId) else { throw APIError.notFound("That store") }
        let open = try await PickBatchQueries.open(store: store, on: database.client, logger: logger)
        return .ok(.init(body: .json(.init(
            items: open.map { .init(id: $0.0.uuidString.lowercased(), createdAt: $0.1, orderCount: $0.2) }, nextCursor: nil))))
    }

    func getPickList(_ input: Operations.GetPickList.Input) async throws -> Operations.GetPickList.Output {
        let batch = try await pickLists.batch(try Self.pickListID(input.path.pickListId), for: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(batch))))
    }

    func getPickListHTML(_ input: Operations.GetPickListHTML.Input) async throws -> Operations.GetPickListHTML.Output {
        let batch = try await pickLists.batch(try Self.pickListID(input.path.pickListId), for: try Identity.required, logger: logger)
        return .ok(.init(body: .html(HTTPBody(try batch.walk().htmlSheet(header: batch.header)))))
    }

    func getPickListText(_ input: Operations.GetPickListText.Input) async throws -> Operations.GetPickListText.Output {
        guard let width = PrinterWidth(rawValue: input.query.width?.rawValue ?? 80) else { throw PickBatchError.invalidWidth }
        let batch = try await pickLists.batch(try Self.pickListID(input.path.pickListId), for: try Identity.required, logger: logger)
        return .ok(.init(body: .plainText(HTTPBody(try batch.walk().textSheet(header: batch.header, width: width)))))
    }

    func recordPick(_ input: Operations.RecordPick.Input) async throws -> Operations.RecordPick.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = UUID(uuidString: body.orderId) else { throw APIError.invalidField("orderId", "orderId is a UUID.") }
        let product = try body.productId.map { id in
            guard let uuid = UUID(uuidString: id) else { throw APIError.invalidField("productId", "productId is a UUID.") }
            return uuid
        }
        let outcome = try await pickLists.pick(
            batch: try Self.pickListID(input.path.pickListId), order: order, productID: product, barcode: body.barcode,
            quantity: body.quantity, short: body.short ?? false, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(
            ordered: outcome.ordered, picked: outcome.picked, remaining: outcome.ordered - outcome.picked, short: outcome.short))))
    }

    func completePickList(_ input: Operations.CompletePickList.Input) async throws -> Operations.CompletePickList.Output {
        let completion = try await pickLists.complete(
            batch: try Self.pickListID(input.path.pickListId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(
            packaged: completion.packaged.map { $0.uuidString.lowercased() },
            leftPending: completion.leftPending.map { $0.uuidString.lowercased() }))))
    }

    static func pickListID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw PickBatchError.notFound }
        return id
    }
}

extension Components.Schemas.PickListDetail {
    init(_ batch: PickBatch) throws {
        let walk = try batch.walk()
        let progress = Dictionary(
            batch.lines.map { ("\($0.orderID.uuidString.lowercased())/\($0.productID.uuidString.lowercased())", $0) },
            uniquingKeysWith: { first, _ in first })
        self.init(
            id: batch.id.uuidString.lowercased(), storeId: batch.storeID.description,
            status: batch.isOpen ? .open : .completed, createdAt: batch.createdAt,
            totes: walk.totes.map { .init(label: $0.label, orderId: $0.orderID.rawValue, orderNumber: $0.orderNumber) },
            stops: walk.stops.map { stop in
                Components.Schemas.PickStop(
                    sequence: stop.sequence, productId: stop.productID.rawValue, name: stop.productName, sku: stop.sku,
                    barcode: stop.barcode,
                    location: stop.location.map {
                        .init(aisleCode: $0.aisle.code, aisleName: $0.aisle.name,
                            zone: .init(rawValue: $0.zone.rawValue) ?? .ambient, bay: $0.bay, shelf: $0.shelf)
                    },
                    quantity: stop.quantity,
                    allocations: stop.allocations.map { allocation in
                        let line = progress["\(allocation.tote.orderID.rawValue)/\(stop.productID.rawValue)"]
                        return .init(
                            tote: allocation.tote.label, orderId: allocation.tote.orderID.rawValue,
                            orderNumber: allocation.tote.orderNumber, quantity: allocation.quantity,
                            picked: line?.picked ?? 0, short: line?.short ?? false)
                    })
            })
    }
}
