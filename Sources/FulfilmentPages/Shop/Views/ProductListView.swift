import Foundation
import FulfilmentDomain

/// Products as the shop shows them, on the search (``ShopSearchView``, `GET /shop`) and the
/// favourites (``ShopFavouritesView``, `GET /shop/favourites`); their stock and place in the
/// store as words, for "Find it in store" (``ShopLocateView``) too.
enum ProductListView {
    /// Products as cards: name, price (the regular one struck through during a sale), stock,
    /// place in the store, a quantity and "Add to cart", and the favourite toggle. `fields` are
    /// the shop form's hidden fields (``ShopPageView/formFields(session:back:)``).
    /// Each card shows the product's first image and links to its own page (issue 45); a
    /// visitor (`signedIn` false) gets no favourite toggle. `idPrefix` keeps ids unique where a
    /// page lists a product twice (the front page's offers and new arrivals). On a phone a card is one compact row
    /// (image beside the words), so about six fit a screen.
    static func productList(
        _ products: [ProductRecord], fields: HTML, favourites: Set<ProductID>, empty: String, signedIn: Bool = true, idPrefix: String = ""
    ) -> HTML {
        guard !products.isEmpty else { return "<p class=\"hint\" id=\"no-results\">\(empty)</p>" }
        let cards = HTML.join(
            products.map { product in
                let favourite = favourites.contains(product.id)
                let available = product.stock?.available ?? 0
                var price: HTML = "<strong>\(MoneyText.format(product.priceAmount, product.currency))</strong>"
                if let sale = product.sale {
                    let saving = MoneyText.format(sale.regularAmount - product.priceAmount, product.currency)
                    price =
                        "\(price) <s><span class=\"visually-hidden\">was </span>\(MoneyText.format(sale.regularAmount, product.currency))</s> <span class=\"status status-completed saving\">Save \(saving)</span>"
                }
                let add: HTML =
                    available > 0 && !product.discontinued
                    ? """
                    <form method="post" action="/shop/cart/items" class="add" data-inline>\(fields)
                    <input type="hidden" name="productId" value="\(product.id)"><input type="hidden" name="mode" value="add">
                    <label for="\(idPrefix)qty-\(product.id)">Quantity</label>
                    <input id="\(idPrefix)qty-\(product.id)" name="quantity" type="number" inputmode="numeric" min="1" max="\(min(available, Cart.maximumQuantity))" value="1" class="qty">
                    <button type="submit" aria-label="Add \(product.name) to cart">Add to cart</button>
                    </form>
                    """
                    : "<p class=\"hint\">Not available to order now.</p>"
                let toggle: HTML =
                    signedIn
                    ? """
                    <form method="post" action="/shop/favourites/\(favourite ? "remove" : "add")" class="favourite">\(fields)
                    <input type="hidden" name="productId" value="\(product.id)">
                    <button type="submit" class="secondary" aria-pressed="\(favourite ? "true" : "false")" aria-label="\(favourite ? "Remove \(product.name) from favourites" : "Save \(product.name) to favourites")">\(favourite ? "★ Saved" : "☆ Save")</button>
                    </form>
                    """ : .empty
                return """
                    <li class="product" id="\(idPrefix)product-\(product.id)" data-product-id="\(product.id)">
                    \(thumbnail(product))
                    <div class="product-words">
                    <h3 class="product-name"><a href="\(path(product))">\(product.name)</a></h3>
                    <p class="hint">\([product.brand, product.size, product.category].filter { !$0.isEmpty }.joined(separator: " · "))</p>
                    <p class="price">\(price)</p>
                    <p class="stock \(available > 0 ? "in" : "out")">\(Self.stockText(product))</p>
                    <p class="where">\(Self.whereText(product))</p>
                    \(add)
                    \(toggle)
                    </div>
                    </li>
                    """
            })
        return "<ul class=\"products\" id=\"\(idPrefix)products\">\(cards)</ul>"
    }

    /// The product's own page in the shop.
    static func path(_ product: ProductRecord) -> String { "/shop/products/\(product.slug)" }

    /// The card's picture: the product's first image (decorative beside its name, so `alt=""`),
    /// else a plain tile with its initial, so every card has one.
    static func thumbnail(_ product: ProductRecord) -> HTML {
        guard product.hasImage else {
            return "<span class=\"thumb thumb-none\" aria-hidden=\"true\">\(String(product.name.prefix(1)).uppercased())</span>"
        }
        return "<img class=\"thumb\" src=\"/v1/products/\(product.id)/image\" alt=\"\" width=\"72\" height=\"72\" loading=\"lazy\">"
    }

    /// Whether the store has it now, in words.
    static func stockText(_ product: ProductRecord) -> String {
        if product.discontinued { return "No longer sold" }
        let available = product.stock?.available ?? 0
        switch available {
        case 0: return "Out of stock"
        case 1...5: return "Only \(available) left"
        default: return "In stock"
        }
    }

    /// Where it is in the store, in words ("Aisle 6 (Dairy), bay 1, shelf B").
    static func whereText(_ product: ProductRecord) -> String {
        product.stock?.location?.sentence ?? LocationRecord.notLocatedSentence
    }
}
