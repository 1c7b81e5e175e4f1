import Foundation
import FulfilmentDomain

/// The chain's stores, shown by `GET /console/stores` (where a chain admin lands after signing
/// in): each store with its aisles in walk order.
enum StoresView {
    static func page(session: ConsoleSession, stores: [(store: StoreRecord, aisles: [AisleRecord])]) -> ConsolePage {
        var sections: [HTML] = []
        for (store, aisles) in stores {
            let rows = HTML.join(
                aisles.map { aisle in
                    "<tr><td>\(aisle.walkOrder)</td><td>\(aisle.code)</td><td>\(aisle.name)</td><td>\(aisle.zone)</td></tr>"
                })
            let table: HTML =
                aisles.isEmpty
                ? "<p class=\"hint\">No aisles yet.</p>"
                : """
                <table><thead><tr><th>Walk</th><th>Aisle</th><th>Name</th><th>Zone</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """
            sections.append(
                """
                <section class="store" id="store-\(store.code)">
                <h2>\(store.name) <small>\(store.code) · \(store.currency)</small></h2>
                <p>\(store.address)</p>
                \(table)
                </section>
                """)
        }
        let list: HTML = sections.isEmpty ? "<p class=\"hint\">No stores yet.</p>" : HTML.join(sections)
        return ConsolePage(
            title: "Stores", session: session,
            body: """
                <h1>The chain's stores</h1>
                <p class="hint">Open stores and lay out aisles with <code>POST /v1/stores</code> and
                <code>fulfilment store create</code> / <code>fulfilment store aisle add</code>; the catalogue with
                <code>/v1/products</code> and <code>fulfilment import products</code>.</p>
                \(list)
                """
        )
    }
}
