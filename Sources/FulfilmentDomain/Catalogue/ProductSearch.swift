/// How a product listing is ordered (`sort=`).
package enum ProductSort: String, Sendable, CaseIterable {
    /// Best match first (needs search text).
    case relevance
    /// Cheapest first at the store (needs a store).
    case price
    /// By name, case-insensitive.
    case name
    /// Latest added to the store's range first (or, without a store, to the catalogue).
    case newest
}

/// What a catalogue search or listing asks for.
package struct ProductSearch: Sendable {
    /// Lower-cased and trimmed; empty lists the catalogue.
    package var text: String
    /// Only products this store carries, with their stock there.
    package var storeID: StoreID?
    /// Exactly this category (trimmed), as `GET /v1/categories` names it.
    package var category: String?
    /// Only products with a sale running at the store that makes them cheaper.
    package var onSale: Bool
    /// Only products added to the store's range within its new-arrival window.
    package var newArrivals: Bool
    /// Only discontinued products instead of those on sale (the console's catalogue, to bring
    /// one back); a listing never mixes the two.
    package var discontinued: Bool
    package var sort: ProductSort
    package var limit: Int
    package var cursor: String?

    /// Checks what goes together: `relevance` needs text (`invalid_field` `sort`); `price`,
    /// `onSale` and `new` need a store (`store_required`). The sort defaults to relevance with
    /// text, name without.
    package init(
        text: String?, storeID: StoreID?, category: String?, onSale: Bool = false, newArrivals: Bool = false,
        discontinued: Bool = false, sort: ProductSort? = nil, limit: Int, cursor: String?
    ) throws(CatalogueError) {
        // Counted in code points, as the contract's maxLength counts them, before anything changes them.
        guard (text ?? "").unicodeScalars.count <= 100 else { throw .invalidField("q", "The search text must be at most 100 characters.") }
        guard (category ?? "").unicodeScalars.count <= 200 else {
            throw .invalidField("category", "A category is at most 200 characters.")
        }
        let text = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        self.text = text
        self.storeID = storeID
        let category = category?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.category = category?.isEmpty == true ? nil : category
        self.onSale = onSale
        self.newArrivals = newArrivals
        self.discontinued = discontinued
        self.sort = sort ?? (text.isEmpty ? .name : .relevance)
        self.limit = limit
        self.cursor = cursor
        if self.sort == .relevance, text.isEmpty {
            throw .invalidField("sort", "Sorting by relevance needs search text (q); without it, sort by name, price or newest.")
        }
        if storeID == nil {
            if self.sort == .price { throw .storeRequired("sort") }
            if onSale { throw .storeRequired("onSale") }
            if newArrivals { throw .storeRequired("new") }
        }
    }

    /// What the listing is, apart from where it is paged to: a cursor carries it, so a cursor
    /// of another listing is refused. FNV-1a (stable across instances and restarts).
    package var fingerprint: UInt64 {
        let fields = [
            text, storeID?.description ?? "", category ?? "", onSale ? "s" : "", newArrivals ? "n" : "", sort.rawValue, discontinued ? "d" : "",
        ]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in fields.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
