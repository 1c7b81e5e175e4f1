import Foundation

/// A comment on a recipe (`UserComment`: Swift Testing has a `Comment` of its own) or on a store's news item, in Markdown.
struct UserComment: Sendable, Equatable {
    /// What a comment is on.
    enum Target: Sendable, Equatable {
        case recipe(RecipeID)
        case news(NewsID, store: StoreID)
    }

    var id: CommentID
    var target: Target
    var author: Author
    var bodyMarkdown: String
    var hidden: Bool
    var createdAt: Date

    static let bodyLength = 4_000
}
