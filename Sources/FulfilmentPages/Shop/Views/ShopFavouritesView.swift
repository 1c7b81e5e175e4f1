import Foundation
import FulfilmentDomain

/// The customer's favourites, shown by `GET /shop/favourites` and by a refused
/// `POST /shop/favourites/add` or `/remove`: the saved products as the search shows them (``ProductListView``).
enum ShopFavouritesView {
    /// `back` is where the products' forms come back to.
    static func page(frame: ShopPageView.Frame, products: [ProductRecord], back: String) -> ConsolePage {
        let fields = ShopPageView.formFields(session: frame.session, back: back)
        return ShopPageView.page(
            "Favourites", frame: frame,
            body: """
                <h1>Favourites</h1>
                \(ProductListView.productList(products, fields: fields, favourites: Set(products.map(\.id)), empty: "No favourites yet: tap ☆ Save on a product to keep it here."))
                """)
    }
}
