import Foundation
import FulfilmentDomain

/// A listing of the store's products under a heading, shown by `GET /shop/offers` (everything
/// on sale there, with the saving: `searchProducts?onSale=true`) and `GET /shop/new` (what the
/// store added within its new-arrival window: `?new=true`): sortable, paged.
enum ShopListingView {
    /// `path` is the listing's address; `sorts` the orders offered (the current one `sort`).
    static func page(
        frame: ShopPageView.Frame, store: StoreRecord, title: String, intro: String, path: String, sort: ProductSort, sorts: [ProductSort],
        products: [ProductRecord], favourites: Set<ProductID>, next: String?, empty: String
    ) -> ConsolePage {
        let back = "\(path)?sort=\(sort.rawValue)"
        let fields = ShopPageView.formFields(session: frame.session, back: back)
        let sortLinks = HTML.join(
            sorts.map { option in
                option == sort
                    ? "<strong aria-current=\"true\">\(label(option))</strong>"
                    : "<a href=\"\(path)?sort=\(option.rawValue)\" id=\"sort-\(option.rawValue)\">\(label(option))</a>"
            }, separator: " · ")
        let more: HTML =
            next.map {
                "<p><a class=\"button secondary\" id=\"more\" href=\"\(path)?sort=\(sort.rawValue)&amp;cursor=\(SignInView.queryValue($0))\">More</a></p>"
            }
            ?? .empty
        return ShopPageView.page(
            title, frame: frame,
            body: """
                <h1>\(title)</h1>
                <p class="hint">\(intro)</p>
                <p class="hint" id="sort">Sort: \(sortLinks)</p>
                <h2 class="visually-hidden">Products</h2>
                \(ProductListView.productList(products, fields: fields, favourites: favourites, empty: empty, signedIn: frame.session != nil))
                \(more)
                """)
    }

    static func label(_ sort: ProductSort) -> String {
        switch sort {
        case .price: "cheapest first"
        case .name: "A to Z"
        case .newest: "newest first"
        case .relevance: "best match"
        }
    }
}
