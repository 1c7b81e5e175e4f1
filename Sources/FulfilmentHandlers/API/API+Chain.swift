import Foundation
import FulfilmentDomain

/// The chain admin's routes: opening stores and laying out their aisles. Rules and SQL live in
/// `Chain/Stores.swift` and `StoreQueries`, shared with `fulfilment store ...`.
extension API {

    func createStore(_ input: Operations.CreateStore.Input) async throws -> Operations.CreateStore.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let admin = try Identity.required
        let store = try await services.stores.create(
            code: body.code, name: body.name, address: body.address ?? "", currency: body.currency, location: body.location.map(GeoPoint.init),
            logger: logger)
        logger.info("store opened", metadata: ["store": "\(store.id)", "code": "\(store.code)", "by": "\(admin.userID)"])
        return .created(.init(body: .json(.init(store))))
    }

    func updateStore(_ input: Operations.UpdateStore.Input) async throws -> Operations.UpdateStore.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = StoreID(input.path.storeId) else { throw ChainError.storeNotFound }
        try Stores.checkChange(code: body.code, name: body.name, by: try Identity.required.role)
        let store = try await services.stores.update(
            id, code: body.code, name: body.name, address: body.address, phone: body.phone, location: body.location.map(GeoPoint.init),
            newArrivalDays: body.newArrivalDays, reminderHours: body.reminderHours, logoURL: body.logoUrl, taxNumber: body.taxNumber, logger: logger)
        return .ok(.init(body: .json(.init(store))))
    }

    func createAisle(_ input: Operations.CreateAisle.Input) async throws -> Operations.CreateAisle.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId) else { throw ChainError.storeNotFound }
        let aisle = try await services.stores.addAisle(
            to: store, .init(code: body.code, name: body.name, walkOrder: body.walkOrder, zone: body.zone?.rawValue), logger: logger)
        return .created(.init(body: .json(try .init(aisle))))
    }

    func updateAisle(_ input: Operations.UpdateAisle.Input) async throws -> Operations.UpdateAisle.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId), let id = AisleID(input.path.aisleId) else { throw ChainError.aisleNotFound }
        let aisle = try await services.stores.updateAisle(
            id, of: store, .init(code: body.code, name: body.name, walkOrder: body.walkOrder, zone: body.zone?.rawValue), logger: logger)
        return .ok(.init(body: .json(try .init(aisle))))
    }

    func deleteAisle(_ input: Operations.DeleteAisle.Input) async throws -> Operations.DeleteAisle.Output {
        guard let store = StoreID(input.path.storeId), let id = AisleID(input.path.aisleId) else { throw ChainError.aisleNotFound }
        try await services.stores.removeAisle(id, of: store, logger: logger)
        return .noContent(.init())
    }
}
