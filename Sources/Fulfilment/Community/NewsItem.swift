import Foundation

/// A store's news item, written by its managers: Markdown, published or a draft, maybe pinned.
struct NewsItem: Sendable, Equatable {
    var id: NewsID
    var store: StoreID
    var title: String
    var bodyMarkdown: String
    var published: Bool
    /// When it was first published (readers see pinned items first, then the newest).
    var publishedAt: Date?
    var pinned: Bool
    /// Its visible comments.
    var commentCount: Int
    var createdAt: Date
    var updatedAt: Date
    var hasImage = false

    /// What a manager writes, checked: a title of 1 to 200 characters, a body of at most 20,000.
    struct Draft: Sendable, Equatable {
        var title: String
        var bodyMarkdown: String
        var published: Bool
        var pinned: Bool

        init(title: String, bodyMarkdown: String, published: Bool, pinned: Bool) throws(ContentError) {
            self.title = try ContentText.title(title)
            self.bodyMarkdown = try ContentText.body(bodyMarkdown)
            self.published = published
            self.pinned = pinned
        }
    }
}
