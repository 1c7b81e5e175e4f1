import Foundation

/// A store's news item, written by its managers: Markdown, published or a draft, maybe pinned.
package struct NewsItem: Sendable, Equatable {
    package var id: NewsID
    package var store: StoreID
    package var title: String
    package var bodyMarkdown: String
    package var published: Bool
    /// When it was first published (readers see pinned items first, then the newest).
    package var publishedAt: Date?
    package var pinned: Bool
    /// Its visible comments.
    package var commentCount: Int
    package var createdAt: Date
    package var updatedAt: Date
    package var hasImage = false

    /// What a manager writes, checked: a title of 1 to 200 characters, a body of at most 20,000.
    package struct Draft: Sendable, Equatable {
        package var title: String
        package var bodyMarkdown: String
        package var published: Bool
        package var pinned: Bool

        package init(title: String, bodyMarkdown: String, published: Bool, pinned: Bool) throws(ContentError) {
            self.title = try ContentText.title(title)
            self.bodyMarkdown = try ContentText.body(bodyMarkdown)
            self.published = published
            self.pinned = pinned
        }
    }
}
