import Foundation

/// A customer's rating (1 to 5) and review of a product they collected: a verified purchase,
/// one per customer and product, which they may edit.
struct Review: Sendable, Equatable {
    var id: ReviewID
    var product: ProductID
    /// The store of the collected order it comes from.
    var store: StoreID
    var author: Author
    var rating: Int
    var bodyMarkdown: String
    var helpfulCount: Int
    var hidden: Bool
    var createdAt: Date
    var updatedAt: Date

    enum Order: String, Sendable {
        case newest
        case helpful
    }

    static let ratingRange = 1...5
    static let bodyLength = 4_000
}

/// A product's visible reviews' ratings, as every product listing shows them.
struct Rating: Sendable, Equatable {
    var count: Int
    var sum: Int

    /// The mean to two places; nil with no ratings.
    var average: Double? {
        guard count > 0 else { return nil }
        return (Double(sum) / Double(count) * 100).rounded() / 100
    }
}
