/// A page of rows and the cursor of the next page, if there is one.
package struct Page<Item: Sendable>: Sendable {
    package var items: [Item]
    package var nextCursor: String?
}
