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
        let cart = place.cart
        let fields = Self.shopFormFields(visit, back: "/shop/cart")
        let rows = HTML.join(
            cart.lines.map { line in
                let id = line.productID
                var warning: HTML = .empty
                if line.discontinued {
                    warning = "<p class=\"stock out\">No longer sold: remove it to check out.</p>"
                } else if line.available < line.quantity {
                    warning =
                        "<p class=\"stock out\">\(line.available == 0 ? "Out of stock" : "Only \(line.available) left"): lower the quantity to check out.</p>"
                }
                var price: HTML = "\(MoneyText.format(line.unitPrice, cart.currency)) each"
                if let regular = line.regularPrice, regular > line.unitPrice {
                    price = "\(price) <s aria-label=\"was\">\(MoneyText.format(regular, cart.currency))</s>"
                }
                let choice = line.substitution.kind
                return """
                    <li class="cart-line" id="line-\(id)" data-product-id="\(id)">
                    <h3>\(line.name)</h3>
                    <p class="hint">\(price)</p>
                    \(warning)
                    <form method="post" action="/shop/cart/items" class="fields line-form" data-inline>\(fields)
                    <input type="hidden" name="productId" value="\(id)"><input type="hidden" name="mode" value="set">
                    <span class="field"><label for="qty-\(id)">Quantity</label>
                    <input id="qty-\(id)" name="quantity" type="number" inputmode="numeric" min="0" max="\(Cart.maximumQuantity)" value="\(line.quantity)" class="qty"></span>
                    <span class="field"><label for="sub-\(id)">If it runs out</label>
                    <select id="sub-\(id)" name="substitution">
                    <option value="best_match"\(HTML(trusted: choice == .bestMatch ? " selected" : ""))>Something similar</option>
                    <option value="none"\(HTML(trusted: choice == .none ? " selected" : ""))>Nothing: refund it</option>
                    \(choice == .specific ? "<option value=\"specific\" selected disabled>The products I chose</option>" : "" as HTML)
                    </select></span>
                    <button type="submit" class="secondary" aria-label="Update \(line.name)">Update</button>
                    </form>
                    <form method="post" action="/shop/cart/items/remove" class="inline-form" data-inline>\(fields)
                    <input type="hidden" name="productId" value="\(id)">
                    <button type="submit" class="secondary" aria-label="Remove \(line.name)">Remove</button>
                    </form>
                    <p class="line-total">\(MoneyText.format(line.lineTotal, cart.currency))</p>
                    </li>
                    """
            })
        var coupon: HTML = """
            <form method="post" action="/shop/cart/coupon" class="fields" id="coupon-form">\(fields)
            <span class="field"><label for="coupon-code">Coupon code</label>
            <input id="coupon-code" name="code" maxlength="40" autocomplete="off" autocapitalize="characters"></span>
            <button type="submit" class="secondary" id="apply-coupon">Apply</button>
            </form>
            """
        if let applied = cart.coupon {
            let problem = applied.problem.map { ErrorMiddleware<AppRequestContext>.apiError(for: CouponError.refused($0)).message }
            coupon = """
                <div id="coupon"><p>Coupon <strong>\(applied.code)</strong>: \(applied.description)
                \(problem.map { "<span class=\"stock out\">Not used now: \($0)</span>" as HTML } ?? .empty)</p>
                <form method="post" action="/shop/cart/coupon/remove">\(fields)<button type="submit" class="secondary" id="remove-coupon">Remove coupon</button></form></div>
                """
        }
        let canCheckOut =
            !cart.lines.isEmpty && place.store != nil
            && cart.lines.allSatisfy { !$0.discontinued && $0.available >= $0.quantity }
        let body: HTML =
            cart.lines.isEmpty
            ? "<section id=\"cart\"><p class=\"hint\" id=\"cart-empty\">Your cart is empty. <a href=\"/shop\">Find something</a>.</p></section>"
            : """
            <section id="cart">
            <ul class="cart-lines">\(rows)</ul>
            \(coupon)
            <dl class="totals">
            <dt>Subtotal</dt><dd id="subtotal">\(MoneyText.format(cart.subtotal, cart.currency))</dd>
            \(cart.discount > 0 ? "<dt>Coupon</dt><dd id=\"discount\">−\(MoneyText.format(cart.discount, cart.currency))</dd>" : "" as HTML)
            <dt>Total</dt><dd id="total"><strong>\(MoneyText.format(cart.total, cart.currency))</strong></dd>
            </dl>
            \(canCheckOut ? "<p><a class=\"button big\" id=\"to-checkout\" href=\"/shop/checkout\">Choose a pickup time</a></p>" : "<p class=\"hint\">Fix the lines marked above to check out.</p>" as HTML)
            </section>
            """
        return shopPage(
            "Cart", visit, place: place, notice: notice, status: status,
            body: """
                <h1>Your cart</h1>
                \(place.store.map { "<p class=\"hint\">For collection at \($0.name). Prices are checked again as you check out.</p>" as HTML } ?? .empty)
                \(body)
                """)
    }
}
