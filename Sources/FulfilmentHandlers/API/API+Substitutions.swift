import Foundation
import FulfilmentDomain

/// Substitutions and arrivals (issue 27): a picker gives a substitute from a pick list, the
/// order's customer (or the desk) decides on it, the customer says "I'm here", and a store's
/// manager sets its substitution policy. Each through `Substitutions` or `Arrivals`, which bind
/// the caller's store or customer into their routines.
extension API {

    func createSubstitution(_ input: Operations.CreateSubstitution.Input) async throws -> Operations.CreateSubstitution.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = OrderID(body.orderId) else { throw APIError.invalidField("orderId", "orderId is a UUID.") }
        guard let product = ProductID(body.productId) else { throw APIError.invalidField("productId", "productId is a UUID.") }
        let named = try body.substituteProductId.map { text in
            guard let id = ProductID(text) else { throw APIError.invalidField("substituteProductId", "substituteProductId is a UUID.") }
            return id
        }
        let choice: Substitutions.Choice
        switch (named, body.substituteBarcode) {
        case (let id?, let barcode?): choice = .both(id, barcode: barcode)
        case (let id?, nil): choice = .product(id)
        case (nil, let barcode?): choice = .barcode(barcode)
        case (nil, nil):
            throw APIError(
                .unprocessableContent, "missing_field", "Send the substitute's scanned barcode or its productId.",
                details: ["field": "substituteBarcode"])
        }
        let identity = try Identity.required
        let (placed, id) = try await services.substitutions.substitute(
            on: try PickListID.parse(input.path.pickListId), order: order, product: product, choice: choice, quantity: body.quantity,
            in: try StoreScope(staff: identity), by: identity, logger: logger)
        guard let substitution = try Components.Schemas.Substitution(id, in: placed) else { throw APIError.internal }
        return .created(.init(body: .json(substitution)))
    }

    func decideSubstitution(_ input: Operations.DecideSubstitution.Input) async throws -> Operations.DecideSubstitution.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = OrderID(input.path.orderId), let id = SubstitutionID(input.path.substitutionId) else {
            throw SubstitutionError.substitutionNotFound
        }
        let identity = try Identity.required
        let decided = try await services.substitutions.decide(id, of: order, accept: body.decision == .accept, by: identity, logger: logger)
        return .ok(.init(body: .json(try .init(decided, for: identity))))
    }

    func recordArrival(_ input: Operations.RecordArrival.Input) async throws -> Operations.RecordArrival.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = OrderID(input.path.orderId) else { throw SubstitutionError.orderNotFound }
        let identity = try Identity.required
        let arrived = try await services.arrivals.arrive(
            order: order, bay: body.bay, vehicle: body.vehicle, note: body.note, customer: identity.userID, logger: logger)
        return .ok(.init(body: .json(try .init(arrived, for: identity))))
    }

    func getSubstitutionPolicy(_ input: Operations.GetSubstitutionPolicy.Input) async throws -> Operations.GetSubstitutionPolicy.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let policy = try await services.substitutions.policy(in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(.init(body: .json(try .init(policy))))
    }

    func setSubstitutionPolicy(_ input: Operations.SetSubstitutionPolicy.Input) async throws -> Operations.SetSubstitutionPolicy.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let policy = SubstitutionPolicy(
            defaultPreference: try SubstitutionPreference.Kind.matching(body.defaultPreference.rawValue),
            priceRule: try SubstitutionPriceRule.matching(body.priceRule.rawValue))
        let set = try await services.substitutions.setPolicy(policy, in: try StoreScope(staff: Identity.required), logger: logger)
        return .ok(.init(body: .json(try .init(set))))
    }
}

extension Components.Schemas.SubstitutionPreference {
    init(_ preference: SubstitutionPreference) throws {
        self.init(
            preference: .init(rawValue: preference.kind.rawValue)!, productIds: preference.productIDs.map(\.description))
    }
}

extension Components.Schemas.SubstitutionPolicy {
    init(_ policy: SubstitutionPolicy) throws {
        self.init(
            defaultPreference: try .matching(policy.defaultPreference.rawValue),
            priceRule: try .matching(policy.priceRule.rawValue))
    }
}

extension Components.Schemas.Substitution {
    /// Substitution `id` as the order's lines hold it: the substitute line and the line it stands in for.
    init?(_ id: SubstitutionID, in order: Order) throws {
        guard let line = order.lines.first(where: { $0.substitute?.id == id }), let substitute = line.substitute else { return nil }
        let original = order.lines.first { $0.productID == substitute.replaces && $0.substitute == nil }
        self.init(
            id: id.description, orderId: order.id.description, productId: substitute.replaces.description,
            productName: original?.name ?? "", substituteProductId: line.productID.description, substituteName: line.name,
            quantity: line.quantity, unitPrice: .init(Money(amount: line.unitPrice, currency: order.total.currency)),
            status: try .matching(substitute.status.rawValue), decidedAt: substitute.decidedAt)
    }
}
