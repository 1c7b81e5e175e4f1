import HTTPTypes

/// Everything news, recipes, comments, reviews and their moderation can be refused for, and how
/// each looks over HTTP: the one place community errors meet status codes.
package enum ContentError: Error, APIErrorConvertible, Equatable {
    case newsNotFound
    case recipeNotFound
    case commentNotFound
    case reviewNotFound
    case productNotFound
    case imageNotFound
    case userNotFound
    case storeNotFound
    case invalidField(String, String)
    /// Only the author may change or delete it.
    case notAuthor
    /// Reviews come from customers who collected an order containing the product.
    case notPurchased
    case ownReview
    /// A moderator blocked this author from posting.
    case postingBlocked
    case tooManyPosts(retryAfterSeconds: Int)
    /// Recipe to cart: the customer has neither a cart at a store nor a chosen store.
    case noStoreChosen

    package var apiError: APIError {
        switch self {
        case .newsNotFound: .notFound("The news item")
        case .recipeNotFound: .notFound("The recipe")
        case .commentNotFound: .notFound("The comment")
        case .reviewNotFound: .notFound("The review")
        case .productNotFound: .notFound("The product")
        case .imageNotFound: .notFound("The image")
        case .userNotFound: .notFound("The user")
        case .storeNotFound: .notFound("The store")
        case .invalidField(let field, let message): .invalidField(field, message)
        case .notAuthor: APIError(.forbidden, "not_author", "Only its author may change or delete this.")
        case .notPurchased:
            APIError(.forbidden, "not_purchased", "You can review a product once you have collected an order with it.")
        case .ownReview: APIError(.conflict, "own_review", "Your own review cannot be marked helpful by you.")
        case .postingBlocked: APIError(.forbidden, "posting_blocked", "A moderator has stopped this account from posting.")
        case .tooManyPosts(let seconds):
            APIError(
                .tooManyRequests, "too_many_posts", "You have posted a lot just now; try again in \(seconds) seconds.",
                details: ["retryAfterSeconds": .int(seconds)], headers: [.retryAfter: String(seconds)])
        case .noStoreChosen:
            APIError(.conflict, "no_store_chosen", "Choose a store first: recipes fill the cart at the cart's store.")
        }
    }
}

extension ContentError: DatabaseErrorMapping {
    /// A recipe's ingredient naming no product, or a store that is not there (foreign keys).
    package init?(databaseError error: any Error) {
        switch (error.sqlState, error.constraintName) {
        case (SQLState.foreignKeyViolation, "recipe_ingredients_product_id_fkey"?):
            self = .invalidField("ingredients", "An ingredient names no such product.")
        case (SQLState.foreignKeyViolation, "recipes_store_id_fkey"?):
            self = .invalidField("storeId", "There is no such store.")
        case (SQLState.placeOrderRefused, _) where error.placeOrderRefusal == "posting_blocked":
            // A store's block on the post's store (the `posting_blocked` trigger).
            self = .postingBlocked
        default: return nil
        }
    }
}
