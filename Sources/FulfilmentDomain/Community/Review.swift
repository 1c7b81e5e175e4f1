import Foundation

/// A customer's rating (1 to 5) and review of a product they collected: a verified purchase,
/// one per customer and product, which they may edit.
package struct Review: Sendable, Equatable {
    package var id: ReviewID
    package var product: ProductID
    /// The store of the collected order it comes from.
    package var store: StoreID
    package var author: Author
    package var rating: Int
    package var bodyMarkdown: String
    package var helpfulCount: Int
    package var hidden: Bool
    package var createdAt: Date
    package var updatedAt: Date

    package enum Order: String, Sendable {
        case newest
        case helpful
    }

    package static let ratingRange = 1...5
    package static let bodyLength = 4_000
}

/// A product's visible reviews' ratings, as every product listing shows them.
package struct Rating: Sendable, Equatable {
    package var count: Int
    package var sum: Int

    /// The mean to two places; nil with no ratings.
    package var average: Double? {
        guard count > 0 else { return nil }
        return (Double(sum) / Double(count) * 100).rounded() / 100
    }
}
