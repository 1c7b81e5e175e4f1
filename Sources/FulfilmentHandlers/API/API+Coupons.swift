import Foundation
import FulfilmentDomain

extension API {

    func applyCartCoupon(_ input: Operations.ApplyCartCoupon.Input) async throws -> Operations.ApplyCartCoupon.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        return .ok(
            .init(body: .json(try Self.cartPayload(try await services.coupons.apply(code: body.code, customer: identity.userID, logger: logger)))))
    }

    func removeCartCoupon(_ input: Operations.RemoveCartCoupon.Input) async throws -> Operations.RemoveCartCoupon.Output {
        let identity = try Identity.required
        return .ok(.init(body: .json(try Self.cartPayload(try await services.coupons.remove(customer: identity.userID, logger: logger)))))
    }

    func listStoreCoupons(_ input: Operations.ListStoreCoupons.Input) async throws -> Operations.ListStoreCoupons.Output {
        let owner = try storeCouponOwner(input.path.storeId)
        let page = try await services.coupons.list(owner: owner, limit: input.query.limit, cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.Coupon.init), nextCursor: page.nextCursor))))
    }

    func createStoreCoupon(_ input: Operations.CreateStoreCoupon.Input) async throws -> Operations.CreateStoreCoupon.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let owner = try storeCouponOwner(input.path.storeId)
        return .created(.init(body: .json(try .init(try await createCoupon(body, owner: owner)))))
    }

    func endStoreCoupon(_ input: Operations.EndStoreCoupon.Input) async throws -> Operations.EndStoreCoupon.Output {
        let owner = try storeCouponOwner(input.path.storeId)
        let id = try CouponID.parse(input.path.couponId)
        return .ok(.init(body: .json(try .init(try await services.coupons.end(id, owner: owner, by: try Identity.required.userID, logger: logger)))))
    }

    func listCoupons(_ input: Operations.ListCoupons.Input) async throws -> Operations.ListCoupons.Output {
        let page = try await services.coupons.list(owner: .chain, limit: input.query.limit, cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.Coupon.init), nextCursor: page.nextCursor))))
    }

    func createCoupon(_ input: Operations.CreateCoupon.Input) async throws -> Operations.CreateCoupon.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        return .created(.init(body: .json(try .init(try await createCoupon(body, owner: .chain)))))
    }

    func endCoupon(_ input: Operations.EndCoupon.Input) async throws -> Operations.EndCoupon.Output {
        let id = try CouponID.parse(input.path.couponId)
        return .ok(.init(body: .json(try .init(try await services.coupons.end(id, owner: .chain, by: try Identity.required.userID, logger: logger)))))
    }

    /// A `/stores/{storeId}/coupons` route's owner: the store in the path is the caller's
    /// (`AccessMiddleware` refused any other with 403), so the scope is taken from who they are.
    private func storeCouponOwner(_ storeId: String) throws -> CouponOwner {
        _ = try StoreID.parse(storeId, notFound: .storeNotFound)
        return .store(try StoreScope(staff: Identity.required))
    }

    private func createCoupon(_ body: Components.Schemas.CouponRequest, owner: CouponOwner) async throws -> Coupon {
        try await services.coupons.create(
            owner: owner, by: try Identity.required.userID, code: body.code, description: body.description,
            percentOffBasisPoints: body.percentOffBasisPoints, amountOff: body.amountOff.map { .init(amount: $0.amount, currency: $0.currency) },
            minimumSpend: body.minimumSpend.map { .init(amount: $0.amount, currency: $0.currency) }, validFrom: body.validFrom,
            validUntil: body.validUntil, redemptionLimit: body.redemptionLimit, perCustomerLimit: body.perCustomerLimit,
            productIDs: body.productIds, categories: body.categories, logger: logger)
    }
}

extension Components.Schemas.CouponList: CursorList {}

extension Components.Schemas.Coupon {
    init(_ coupon: FulfilmentDomain.Coupon) throws {
        let money = { (amount: Int64?) in amount.map { Components.Schemas.Money(amount: $0, currency: coupon.currency ?? "") } }
        var points: Int?
        var amountOff: Int64?
        switch coupon.off {
        case .percent(let basisPoints): points = basisPoints
        case .amount(let amount): amountOff = amount
        }
        self.init(
            id: coupon.id.description, storeId: coupon.store?.description, code: coupon.code, description: coupon.description,
            percentOffBasisPoints: points, amountOff: money(amountOff), minimumSpend: money(coupon.minimumSpend),
            validFrom: coupon.validFrom, validUntil: coupon.validUntil, redemptionLimit: coupon.redemptionLimit,
            perCustomerLimit: coupon.perCustomerLimit, productIds: coupon.productIDs.map(\.description), categories: coupon.categories,
            redeemed: coupon.redeemed, state: try .matching(coupon.state.rawValue), createdAt: coupon.createdAt,
            endedAt: coupon.endedAt)
    }

    /// Writes `"storeId": null` for the chain's coupons (the synthesized encoding omits nil).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(storeId, forKey: .storeId)
        try container.encode(code, forKey: .code)
        try container.encode(description, forKey: .description)
        try container.encodeIfPresent(percentOffBasisPoints, forKey: .percentOffBasisPoints)
        try container.encodeIfPresent(amountOff, forKey: .amountOff)
        try container.encodeIfPresent(minimumSpend, forKey: .minimumSpend)
        try container.encodeIfPresent(validFrom, forKey: .validFrom)
        try container.encodeIfPresent(validUntil, forKey: .validUntil)
        try container.encodeIfPresent(redemptionLimit, forKey: .redemptionLimit)
        try container.encodeIfPresent(perCustomerLimit, forKey: .perCustomerLimit)
        try container.encode(productIds, forKey: .productIds)
        try container.encode(categories, forKey: .categories)
        try container.encode(redeemed, forKey: .redeemed)
        try container.encode(state, forKey: .state)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(endedAt, forKey: .endedAt)
    }
}

extension Components.Schemas.CartCoupon {
    init(_ coupon: CartCoupon, currency: String) throws {
        let money = { (amount: Int64?) in amount.map { Components.Schemas.Money(amount: $0, currency: coupon.currency ?? currency) } }
        self.init(
            code: coupon.code, description: coupon.description, percentOffBasisPoints: coupon.percentOffBasisPoints,
            amountOff: money(coupon.amountOff), minimumSpend: money(coupon.minimumSpend),
            discount: .init(amount: coupon.problem == nil ? coupon.discount : 0, currency: currency),
            problem: try coupon.problem.map { problem in
                Components.Schemas.CouponProblem(
                    code: try .matching(problem.code), message: problem.message,
                    shortfall: problem.shortfall.map { .init(amount: $0, currency: currency) })
            })
    }
}
