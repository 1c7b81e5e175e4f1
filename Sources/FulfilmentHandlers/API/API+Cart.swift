import Foundation
import FulfilmentDomain

extension API {

    func getCart(_ input: Operations.GetCart.Input) async throws -> Operations.GetCart.Output {
        let identity = try Identity.required
        return .ok(.init(body: .json(try Self.cartPayload(try await services.carts.cart(customer: identity.userID, logger: logger)))))
    }

    func setCartStore(_ input: Operations.SetCartStore.Input) async throws -> Operations.SetCartStore.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        guard let store = StoreID(body.storeId) else { throw OrderError.storeNotFound }
        let cart = try await services.carts.setStore(store, customer: identity.userID, logger: logger)
        return .ok(.init(body: .json(try Self.cartPayload(cart))))
    }

    func clearCart(_ input: Operations.ClearCart.Input) async throws -> Operations.ClearCart.Output {
        try await services.carts.clear(customer: try Identity.required.userID, logger: logger)
        return .noContent(.init())
    }

    func setCartItem(_ input: Operations.SetCartItem.Input) async throws -> Operations.SetCartItem.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let caller = try Caller.current
        guard let product = ProductID(input.path.productId) else { throw OrderError.productNotFound }
        // The contract types quantity as a number so that 1.5 is a 422 naming the field, not a 400.
        guard body.quantity.rounded() == body.quantity, (0...Double(Cart.maximumQuantity)).contains(body.quantity) else {
            throw OrderError.invalidQuantity
        }
        // The line's substitution preference (issue 27), checked before the one statement that writes.
        var substitution: SubstitutionPreference?
        if let sent = body.substitution {
            substitution = try await services.substitutions.preference(
                kind: sent.preference.rawValue, productIDs: sent.productIds, for: product, logger: logger)
        }
        let cart = try await services.carts.setQuantity(Int(body.quantity), of: product, substitution: substitution, caller: caller, logger: logger)
        return .ok(.init(body: .json(try Self.cartPayload(cart))))
    }

    func removeCartItem(_ input: Operations.RemoveCartItem.Input) async throws -> Operations.RemoveCartItem.Output {
        let identity = try Identity.required
        guard let product = ProductID(input.path.productId) else { throw OrderError.productNotFound }
        let cart = try await services.carts.remove(product, customer: identity.userID, logger: logger)
        return .ok(.init(body: .json(try Self.cartPayload(cart))))
    }

    static func cartPayload(_ cart: Cart) throws -> Components.Schemas.Cart {
        Components.Schemas.Cart(
            storeId: cart.storeID?.description,
            items: try cart.lines.map { line in
                Components.Schemas.CartLine(
                    productId: line.productID.description, name: line.name, quantity: line.quantity,
                    unitPrice: .init(amount: line.unitPrice, currency: cart.currency),
                    lineTotal: .init(amount: line.lineTotal, currency: cart.currency),
                    available: line.available, enoughStock: line.available >= line.quantity, discontinued: line.discontinued,
                    regularPrice: line.regularPrice.map { .init(amount: $0, currency: cart.currency) }, saleEndsAt: line.saleEndsAt,
                    discount: .init(amount: line.discount, currency: cart.currency), substitution: try .init(line.substitution))
            },
            subtotal: .init(amount: cart.subtotal, currency: cart.currency),
            discount: .init(amount: cart.discount, currency: cart.currency),
            total: .init(amount: cart.total, currency: cart.currency),
            itemCount: cart.lines.reduce(0) { $0 + $1.quantity },
            coupon: try cart.coupon.map { try Components.Schemas.CartCoupon($0, currency: cart.currency) })
    }
}

extension Components.Schemas.Cart {
    /// Writes `"storeId": null` when the cart has no store (the synthesized encoding omits nil).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeId, forKey: .storeId)
        try container.encode(items, forKey: .items)
        try container.encode(subtotal, forKey: .subtotal)
        try container.encode(discount, forKey: .discount)
        try container.encode(total, forKey: .total)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encodeIfPresent(coupon, forKey: .coupon)
    }
}
