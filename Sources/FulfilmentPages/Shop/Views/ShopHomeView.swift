import Foundation
import FulfilmentDomain

/// The shop's front page, shown by `GET /shop` without a search (issue 45): what a grocer's
/// home shows first — the store, the search, this week's offers and what is new (a few of each
/// with the way to all), and the categories with their pictures and words — rather than an
/// alphabetical list of everything.
enum ShopHomeView {
    static func page(
        frame: ShopPageView.Frame, store: StoreRecord, categories: [CategoryCount], offers: [ProductRecord], newIn: [ProductRecord],
        favourites: Set<ProductID>
    ) -> ConsolePage {
        let fields = ShopPageView.formFields(session: frame.session, back: "/shop")
        let signedIn = frame.session != nil
        let tiles = HTML.join(
            categories.map { category in
                var components = URLComponents()
                components.path = "/shop"
                components.queryItems = [URLQueryItem(name: "category", value: category.name)]
                let picture: HTML =
                    category.imageProductID.map {
                        "<img class=\"thumb\" src=\"/v1/products/\($0)/image\" alt=\"\" width=\"72\" height=\"72\" loading=\"lazy\">"
                    }
                    ?? "<span class=\"thumb thumb-none\" aria-hidden=\"true\">\(String(category.name.prefix(1)).uppercased())</span>"
                return """
                    <li class="category"><a href="\(components.string ?? "/shop")">\(picture)<span class="category-name">\(category.name)</span></a>\
                    \(category.description.isEmpty ? "" : "<span class=\"hint\">\(category.description)</span>" as HTML)</li>
                    """
            })
        return ShopPageView.page(
            store.name, frame: frame,
            body: """
                \(ShopSearchView.header(store: store, text: "", category: nil, categories: categories))
                <nav aria-label="More of the shop" class="shop-links" id="shop-links"><a href="/shop/offers">Offers</a><a href="/shop/new">New in</a><a href="/shop/news">News</a><a href="/shop/recipes">Recipes</a><a href="/shop/stores">Stores and opening hours</a></nav>
                <section aria-labelledby="offers-heading" id="home-offers">
                <h2 id="offers-heading">Offers at \(store.name)</h2>
                \(ProductListView.productList(offers, fields: fields, favourites: favourites, empty: "No offers this week.", signedIn: signedIn, idPrefix: "offer-"))
                <p><a href="/shop/offers" id="all-offers">All offers</a></p>
                </section>
                <section aria-labelledby="new-heading" id="home-new">
                <h2 id="new-heading">New in</h2>
                \(ProductListView.productList(newIn, fields: fields, favourites: favourites, empty: "Nothing new this week.", signedIn: signedIn, idPrefix: "new-"))
                <p><a href="/shop/new" id="all-new">Everything new</a></p>
                </section>
                <section aria-labelledby="categories-heading" id="home-categories">
                <h2 id="categories-heading">Categories</h2>
                <ul class="categories">\(tiles)</ul>
                <p><a href="/shop?all=1" id="everything">Everything at \(store.name), A to Z</a></p>
                </section>
                """)
    }
}
