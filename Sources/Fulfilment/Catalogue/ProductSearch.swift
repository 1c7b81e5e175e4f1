/// What a catalogue search asks for.
struct ProductSearch: Sendable {
    /// Lower-cased and trimmed; empty lists the catalogue by name.
    var text: String
    /// Only products this store carries, with their stock there.
    var storeID: StoreID?
    var category: String?
    var limit: Int
    var cursor: String?

    init(text: String?, storeID: StoreID?, category: String?, limit: Int, cursor: String?) throws(CatalogueError) {
        let text = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard text.count <= 100 else { throw .invalidField("q", "The search text must be at most 100 characters.") }
        self.text = text
        self.storeID = storeID
        let category = category?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.category = category?.isEmpty == true ? nil : category
        self.limit = limit
        self.cursor = cursor
    }
}
