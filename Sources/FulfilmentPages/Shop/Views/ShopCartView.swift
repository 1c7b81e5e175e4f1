import Foundation
import FulfilmentDomain

/// The cart, shown by `GET /shop/cart` and by a refused cart form (`POST /shop/cart/items`,
/// `/items/remove`, `/coupon`, `/coupon/remove`): each line with its price, a warning when it
/// cannot be had, its quantity and "If it runs out" choice, Remove; the coupon; the totals; and
/// the way on to checking out.
enum ShopCartView {
    /// `store` is where the cart is collected (nil: none chosen yet); `problem` why the cart's
    /// coupon is not used now, if it is not.
    static func page(frame: ShopPageView.Frame, cart: Cart, store: StoreRecord?, couponProblem problem: String?) -> ConsolePage {
        // A visitor's cart (issue 45) has no coupon and no substitution choice until they sign in.
        let visitor = frame.session == nil
        let fields = ShopPageView.formFields(session: frame.session, back: "/shop/cart")
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
                    price = "\(price) <s><span class=\"visually-hidden\">was </span>\(MoneyText.format(regular, cart.currency))</s>"
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
                    \(visitor ? .empty : Self.substitutionField(id: id, choice: choice))
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
            coupon = """
                <div id="coupon"><p>Coupon <strong>\(applied.code)</strong>: \(applied.description)
                \(problem.map { "<span class=\"stock out\">Not used now: \($0)</span>" as HTML } ?? .empty)</p>
                <form method="post" action="/shop/cart/coupon/remove">\(fields)<button type="submit" class="secondary" id="remove-coupon">Remove coupon</button></form></div>
                """
        }
        if visitor {
            coupon = "<p class=\"hint\" id=\"coupon-sign-in\">Have a coupon? <a href=\"/?next=/shop/cart\">Sign in</a> to use it.</p>"
        }
        let checkOut: HTML =
            visitor
            ? "<p><a class=\"button big\" id=\"to-checkout\" href=\"/shop/checkout\">Sign in to check out</a></p><p class=\"hint\">Your cart comes with you: new here? You create an account on the way.</p>"
            : "<p><a class=\"button big\" id=\"to-checkout\" href=\"/shop/checkout\">Choose a pickup time</a></p>"
        let canCheckOut =
            !cart.lines.isEmpty && store != nil
            && cart.lines.allSatisfy { !$0.discontinued && $0.available >= $0.quantity }
        let body: HTML =
            cart.lines.isEmpty
            ? "<section id=\"cart\"><p class=\"hint\" id=\"cart-empty\">Your cart is empty. <a href=\"/shop\">Find something</a>.</p></section>"
            : """
            <section id="cart">
            <h2 class="visually-hidden">What is in your cart</h2>
            <ul class="cart-lines">\(rows)</ul>
            \(coupon)
            <dl class="totals">
            <dt>Subtotal</dt><dd id="subtotal">\(MoneyText.format(cart.subtotal, cart.currency))</dd>
            \(cart.discount > 0 ? "<dt>Coupon</dt><dd id=\"discount\">−\(MoneyText.format(cart.discount, cart.currency))</dd>" : "" as HTML)
            <dt>Total</dt><dd id="total"><strong>\(MoneyText.format(cart.total, cart.currency))</strong></dd>
            </dl>
            \(canCheckOut ? checkOut : "<p class=\"hint\">Fix the lines marked above to check out.</p>" as HTML)
            </section>
            """
        return ShopPageView.page(
            "Cart", frame: frame,
            body: """
                <h1>Your cart</h1>
                \(store.map { "<p class=\"hint\">For collection at \($0.name). Prices are checked again as you check out.</p>" as HTML } ?? .empty)
                \(body)
                """)
    }

    /// "If it runs out": the line's substitution preference, for a signed-in customer.
    private static func substitutionField(id: ProductID, choice: SubstitutionPreference.Kind) -> HTML {
        """
        <span class="field"><label for="sub-\(id)">If it runs out</label>
        <select id="sub-\(id)" name="substitution">
        <option value="best_match"\(HTML(trusted: choice == .bestMatch ? " selected" : ""))>Something similar</option>
        <option value="none"\(HTML(trusted: choice == .none ? " selected" : ""))>Nothing: refund it</option>
        \(choice == .specific ? "<option value=\"specific\" selected disabled>The products I chose</option>" : "" as HTML)
        </select></span>
        """
    }
}
