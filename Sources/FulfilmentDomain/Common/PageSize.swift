/// A page size from `limit`: 1 to 100, 20 when absent.
package func pageSize(_ limit: Int?) throws(CatalogueError) -> Int {
    guard let limit else { return 20 }
    guard (1...100).contains(limit) else { throw .invalidField("limit", "The limit must be between 1 and 100.") }
    return limit
}
