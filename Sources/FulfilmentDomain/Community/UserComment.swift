import Foundation

/// A comment on a recipe (`UserComment`: Swift Testing has a `Comment` of its own) or on a store's news item, in Markdown.
package struct UserComment: Sendable, Equatable {
    /// What a comment is on.
    package enum Target: Sendable, Equatable {
        case recipe(RecipeID)
        case news(NewsID, store: StoreID)
    }

    package var id: CommentID
    package var target: Target
    package var author: Author
    package var bodyMarkdown: String
    package var hidden: Bool
    package var createdAt: Date

    package static let bodyLength = 4_000
}
