import Foundation
import FulfilmentDomain

/// The shop's search, shown by `GET /shop` (`?q=`, `?category=`, `?barcode=`, `?cursor=`): the
/// store, the search form with the categories, and the products found (``ProductListView``) with
/// a link to more.
enum ShopSearchView {
    /// `next` is the cursor of the next page of results, if any; `back` where the products' forms come back to.
    static func page(
        frame: ShopPageView.Frame, store: StoreRecord, text: String, category: String?, categories: [CategoryCount],
        products: [ProductRecord], favourites: Set<ProductID>, next: String?, back: String
    ) -> ConsolePage {
        var more: HTML = .empty
        if let next {
            var components = URLComponents()
            components.path = "/shop"
            components.queryItems =
                [URLQueryItem(name: "q", value: text), URLQueryItem(name: "cursor", value: next)]
                + (category.map { [URLQueryItem(name: "category", value: $0)] } ?? [])
            more = "<p><a class=\"button secondary\" id=\"more\" href=\"\(components.string ?? "/shop")\">More results</a></p>"
        }
        let heading = text.isEmpty ? (category ?? "Everything at \(store.name)") : "Results for “\(text)”"
        let fields = ShopPageView.formFields(session: frame.session, back: back)
        // A category's own words and picture above its products (issue 45).
        var about: HTML = .empty
        if text.isEmpty, let category, let details = categories.first(where: { $0.name == category }), !details.description.isEmpty {
            about = "<p id=\"category-about\">\(details.description)</p>"
        }
        return ShopPageView.page(
            text.isEmpty ? (category ?? "Shop") : "Search: \(text)", frame: frame,
            body: """
                \(header(store: store, text: text, category: category, categories: categories))
                <h2 id="results-heading">\(heading)</h2>
                \(about)
                \(ProductListView.productList(products, fields: fields, favourites: favourites, empty: "Nothing found. Check the spelling, or try fewer words.", signedIn: frame.session != nil))
                \(more)
                """)
    }

    /// The store and the search form (with the categories and the camera's scan), at the top of
    /// the search and of the shop's front page.
    static func header(store: StoreRecord, text: String, category: String?, categories: [CategoryCount]) -> HTML {
        let options = HTML.join(
            categories.map { item in
                "<option value=\"\(item.name)\"\(HTML(trusted: item.name == category ? " selected" : ""))>\(item.name) (\(item.productCount))</option>"
            })
        return """
            <h1>\(store.name)</h1>
            <p class="hint">Collecting from \([store.name, store.address].filter { !$0.isEmpty }.joined(separator: ", ")). <a href="/shop/stores">Change store</a></p>
            <form method="get" action="/shop" class="search" role="search" id="search">
            <label for="q">Search products</label>
            <input id="q" name="q" type="search" value="\(text)" maxlength="100" autocomplete="off">
            <label for="category">Category</label>
            <select id="category" name="category"><option value="">All categories</option>\(options)</select>
            <button type="submit" id="search-button">Search</button>
            <button type="button" class="secondary" id="scan-barcode" hidden>Scan a barcode</button>
            </form>
            <video id="barcode-view" hidden muted playsinline></video>
            """
    }
}
