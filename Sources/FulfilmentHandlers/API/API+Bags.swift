import Foundation
import FulfilmentDomain

/// Bags and staging places (issue 47): the store's places, and staging a bag by its label's code.
extension API {
    func listStagingPlaces(_ input: Operations.ListStagingPlaces.Input) async throws -> Operations.ListStagingPlaces.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let places = try await services.bags.places(store: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(places))))
    }

    func setStagingPlaces(_ input: Operations.SetStagingPlaces.Input) async throws -> Operations.SetStagingPlaces.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let drafts = try StagingPlace.validated(
            try body.places.map { StagingPlace.Draft(name: $0.name, kind: try .matching($0.kind.rawValue)) })
        let places = try await services.bags.setPlaces(store: store, to: drafts, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(places))))
    }

    func stageBag(_ input: Operations.StageBag.Input) async throws -> Operations.StageBag.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard (3...40).contains(body.bagCode.unicodeScalars.count) else {
            throw APIError.invalidField("bagCode", "A bag's code is the order's number and the bag's, as 1042-2.")
        }
        // Anything not shaped as a bag's code names no bag (and never reaches the database).
        guard let code = OrderBag.code(scanned: body.bagCode) else { throw BagError.bagNotFound }
        guard let place = StagingPlaceID(body.placeId) else { throw BagError.placeNotFound }
        let (order, number) = try await services.bags.stage(code: code, in: place, by: try Identity.required, logger: logger)
        guard let bag = order.bags.bags.first(where: { $0.number == number }) else {
            throw OrderError.unexpectedlyMissing("bag \(number) of order \(order.id), staged in this transaction")
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        orderId: order.id.description, orderNumber: order.number, bag: try .init(bag),
                        bagsStaged: .init(staged: order.bags.staged, of: order.bags.bags.count), readyForPickup: order.readyForPickup))))
    }
}

extension Components.Schemas.StagingPlaceList {
    init(_ places: [StagingPlace]) throws {
        self.init(
            items: try places.map {
                .init(id: $0.id.description, name: $0.name, kind: try .matching($0.kind.rawValue), bagsHeld: $0.bagsHeld)
            }, nextCursor: nil)
    }
}

extension Components.Schemas.StagingPlaceList: CursorList {}

extension Components.Schemas.OrderBag {
    init(_ bag: OrderBag) throws {
        self.init(
            number: bag.number, zone: try .matching(bag.zone.rawValue), code: bag.code,
            place: try bag.place.map { .init(id: $0.id.description, name: $0.name, kind: try .matching($0.kind.rawValue)) },
            stagedAt: bag.stagedAt, handedOverAt: bag.handedOverAt)
    }
}
