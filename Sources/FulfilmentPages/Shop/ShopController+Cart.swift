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
            try await page(request, context, operation: "getCart") { visit in
                cartPage(visit, place: try await shopPlace(visit))
            }
        }
        router.post("/shop/cart/items") { request, context in
            try await page(request, context, operation: "setCartItem") { visit in
                try await shopForm(visit, render: cartRefusal(visit)) {
                    let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
                    let customer = visit.identity.userID
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
                        quantity, of: product, substitution: substitution, caller: .resolved(visit.identity), logger: visit.logger)
                    return visit.form["mode"] == "add" ? "added" : quantity == 0 ? "removed" : "updated"
                }
            }
        }
        router.post("/shop/cart/items/remove") { request, context in
            try await page(request, context, operation: "removeCartItem") { visit in
                try await shopForm(visit, render: cartRefusal(visit)) {
                    let product = try ProductID.parse(visit.form["productId"] ?? "", notFound: .productNotFound)
                    _ = try await services.carts.remove(product, customer: visit.identity.userID, logger: visit.logger)
                    return "removed"
                }
            }
        }
        router.post("/shop/cart/coupon") { request, context in
            try await page(request, context, operation: "applyCartCoupon") { visit in
                try await shopForm(visit, render: cartRefusal(visit)) {
                    _ = try await services.coupons.apply(code: visit.form["code"] ?? "", customer: visit.identity.userID, logger: visit.logger)
                    return "coupon"
                }
            }
        }
        router.post("/shop/cart/coupon/remove") { request, context in
            try await page(request, context, operation: "removeCartCoupon") { visit in
                try await shopForm(visit, render: cartRefusal(visit)) {
                    _ = try await services.coupons.remove(customer: visit.identity.userID, logger: visit.logger)
                    return "uncoupon"
                }
            }
        }
    }

    /// A refused cart form: the cart again, with the refusal above it.
    private func cartRefusal(_ visit: PageVisit) -> (Notice, HTTPResponse.Status) async throws -> Response {
        { notice, status in cartPage(visit, place: try await shopPlace(visit), notice: notice, status: status) }
    }

    func cartPage(_ visit: PageVisit, place: ShopPlace, notice: Notice? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let problem = place.cart.coupon?.problem.map { ErrorMiddleware<AppRequestContext>.apiError(for: CouponError.refused($0)).message }
        return ShopCartView.page(frame: shopFrame(visit, place: place, notice: notice), cart: place.cart, store: place.store, couponProblem: problem)
            .response(status: status)
    }
}
