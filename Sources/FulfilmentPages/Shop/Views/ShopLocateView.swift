import Foundation
import FulfilmentDomain

/// "Find it in store", shown by `GET /shop/locate` (`?q=`): the search form and, for each product
/// found, where it is in the store and whether it is in stock.
enum ShopLocateView {
    /// `text` is the search as typed (empty: nothing searched yet).
    static func page(frame: ShopPageView.Frame, store: StoreRecord, text: String, found: [ProductRecord]) -> ConsolePage {
        let rows = HTML.join(
            found.map { product in
                """
                <li class="located"><strong>\(product.name)</strong> <span class="where">\(ProductListView.whereText(product))</span>
                <span class="hint">\(ProductListView.stockText(product))</span></li>
                """
            })
        let list: HTML =
            text.isEmpty
            ? .empty
            : found.isEmpty
                ? "<p class=\"hint\" id=\"locate-empty\">Nothing found at this store.</p>" : "<ul class=\"locate\" id=\"locate-results\">\(rows)</ul>"
        return ShopPageView.page(
            "Find it in store", frame: frame,
            body: """
                <h1>Find it in store</h1>
                <p class="hint">Which aisle at \(store.name): type what you are looking for.</p>
                <form method="get" action="/shop/locate" class="search" role="search">
                <label for="locate-q">Product</label>
                <input id="locate-q" name="q" type="search" value="\(text)" maxlength="100">
                <button type="submit" id="locate-button">Find</button>
                </form>
                \(list)
                """)
    }
}
