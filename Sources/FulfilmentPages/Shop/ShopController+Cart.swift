import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The shop's cart, `/shop/cart` (`getCart`): each line re-priced and checked against the
/// store's stock on every read, its quantity and its substitution preference (`setCartItem`),
/// removal (`removeCartItem`), the coupon (`applyCartCoupon`, `removeCartCoupon`), and the way
/// on to choosing a pickup slot.
extension ShopController {
    func registerShopCart(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/cart") { request, context in
            try await shopPage(request, context, operation: "getCart") { visit in
                var place = try await shopPlace(visit)
                var notice: Notice?
                // After signing in, what of the visitor's cart the account's store could not take.
                if let missing = Self.query(visit.request)["missing"] {
                    let names = try await missingNames(missing, visit)
                    if !names.isEmpty {
                        notice = Notice(ok: false, text: "Not added from the cart you filled before signing in: \(names.joined(separator: ", ")).")
                    }
                    place = try await shopPlace(visit)
                }
                return cartPage(visit, place: place, notice: notice)
            }
        }
        router.post("/shop/cart/items") { request, context in
            try await shopPage(request, context, operation: "setCartItem") { visit in
                guard visit.customer != nil else { return try await visitorSetItem(visit) }
                return try await shopForm(visit, render: cartRefusal(visit)) {
                    let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
                    let customer = visit.customer!
                    // A typed quantity is bounded before anything else: "1O" or "1e9" is a sentence, never a trap.
                    guard let typed = try? visit.form.int("quantity", in: 0...Cart.maximumQuantity) else { throw OrderError.invalidQuantity }
                    var quantity = typed
                    if visit.form["mode"] == "add" {
                        let cart = try await services.carts.cart(customer: customer, logger: visit.logger)
                        quantity += cart.lines.first { $0.productID == product }?.quantity ?? 0
                        guard quantity <= Cart.maximumQuantity else { throw OrderError.invalidQuantity }
                    }
                    var substitution: SubstitutionPreference?
                    if let kind = visit.form.text("substitution") {
                        substitution = try await services.substitutions.preference(kind: kind, productIDs: nil, for: product, logger: visit.logger)
                    }
                    _ = try await services.carts.setQuantity(
                        quantity, of: product, substitution: substitution, caller: .resolved(visit.session!.identity), logger: visit.logger)
                    return visit.form["mode"] == "add" ? "added" : quantity == 0 ? "removed" : "updated"
                }
            }
        }
        router.post("/shop/cart/items/remove") { request, context in
            try await shopPage(request, context, operation: "removeCartItem") { visit in
                try await shopForm(visit, render: cartRefusal(visit)) {
                    let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
                    if let customer = visit.customer {
                        _ = try await services.carts.remove(product, customer: customer, logger: visit.logger)
                    } else if let token = visit.guestToken, let store = try await shopPlace(visit).store {
                        try await services.guestCarts.setQuantity(0, of: product, add: false, token: token, store: store.id, logger: visit.logger)
                    }
                    return "removed"
                }
            }
        }
        router.post("/shop/cart/coupon") { request, context in
            try await page(request, context, operation: "applyCartCoupon") { visit in
                try await shopForm(ShopVisit(visit), render: cartRefusal(ShopVisit(visit))) {
                    _ = try await services.coupons.apply(code: visit.form["code"] ?? "", customer: visit.identity.userID, logger: visit.logger)
                    return "coupon"
                }
            }
        }
        router.post("/shop/cart/coupon/remove") { request, context in
            try await page(request, context, operation: "removeCartCoupon") { visit in
                try await shopForm(ShopVisit(visit), render: cartRefusal(ShopVisit(visit))) {
                    _ = try await services.coupons.remove(customer: visit.identity.userID, logger: visit.logger)
                    return "uncoupon"
                }
            }
        }
    }

    /// A refused cart form: the cart again, with the refusal above it.
    private func cartRefusal(_ visit: ShopVisit) -> (Notice, HTTPResponse.Status) async throws -> Response {
        { notice, status in cartPage(visit, place: try await shopPlace(visit), notice: notice, status: status) }
    }

    /// A visitor's "add to cart" (issue 45): into their guest cart, made (with its cookie) on the
    /// first product, at the store they chose (a visitor who chose none chooses first).
    private func visitorSetItem(_ visit: ShopVisit) async throws -> Response {
        let place = try await shopPlace(visit)
        guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
        let token = visit.guestToken ?? SessionToken.generate().text
        var response = try await shopForm(visit, render: cartRefusal(visit)) {
            let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
            guard let quantity = try? visit.form.int("quantity", in: 0...Cart.maximumQuantity) else { throw OrderError.invalidQuantity }
            let add = visit.form["mode"] == "add"
            try await services.guestCarts.setQuantity(quantity, of: product, add: add, token: token, store: store.id, logger: visit.logger)
            return add ? "added" : quantity == 0 ? "removed" : "updated"
        }
        if visit.guestToken == nil, response.status == .seeOther { response.setCookie(ShopVisit.cartCookie(token, secure: secureCookies)) }
        return response
    }

    /// The names of `missing` (product ids, comma-separated, at most 50), for the sentence above
    /// the cart after a merge; an id that names no product is left out.
    private func missingNames(_ missing: String, _ visit: ShopVisit) async throws -> [String] {
        var names: [String] = []
        for id in missing.split(separator: ",").prefix(GuestCarts.maximumLines).compactMap({ ProductID(String($0)) }) {
            if let product = try? await services.catalogue.product(id, logger: visit.logger) { names.append(product.name) }
        }
        return names
    }

    func cartPage(_ visit: ShopVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let problem = place.cart.coupon?.problem.map { ErrorMiddleware<AppRequestContext>.apiError(for: CouponError.refused($0)).message }
        return ShopCartView.page(frame: shopFrame(visit, place: place, notice: notice), cart: place.cart, store: place.store, couponProblem: problem)
            .response(status: status)
    }
}
