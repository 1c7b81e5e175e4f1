import Foundation
import FulfilmentDomain

/// Choosing a store, shown by `GET /shop/stores` (where a new customer lands) and by a refused
/// `POST /shop/store`: the chain's stores, the customer's own marked, "Shop here" on the others.
enum ShopStoresView {
    static func page(frame: ShopPageView.Frame, stores: [StoreRecord], current currentStore: StoreRecord?) -> ConsolePage {
        let fields = ShopPageView.formFields(session: frame.session, back: "/shop")
        let items = HTML.join(
            stores.map { store in
                let current = store.id == currentStore?.id
                return """
                    <li class="store\(HTML(trusted: current ? " current" : ""))"><form method="post" action="/shop/store">\(fields)
                    <input type="hidden" name="storeId" value="\(store.id)">
                    <strong>\(store.name)</strong> <span class="hint">\(store.address)</span>
                    \(current ? "<span class=\"status status-completed\">Your store</span>" : "<button type=\"submit\" class=\"secondary\" aria-label=\"Shop at \(store.name)\">Shop here</button>" as HTML)
                    </form></li>
                    """
            })
        return ShopPageView.page(
            "Choose a store", frame: frame,
            body: """
                <h1>Choose your store</h1>
                <p class="hint">Prices, stock and aisles are each store's own; you collect your order there.</p>
                <ul class="stores" id="stores">\(items)</ul>
                """)
    }
}
