/// A page of rows and the cursor of the next page, if there is one.
struct Page<Item: Sendable>: Sendable {
    var items: [Item]
    var nextCursor: String?
}
