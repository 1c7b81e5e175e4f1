import Logging

/// Product reviews: anyone reads them, newest or most helpful first (hidden ones only their
/// author and moderators); a customer who collected an order with the product writes one
/// (through `PostingQueries`' gate) and edits or deletes it; anyone signed in marks another's helpful.
package struct Reviews: Sendable {
    package let database: Database

    package func list(
        of product: ProductID, order: Review.Order, viewer: Viewer, limit: Int, cursor: String?, logger: Logger
    ) async throws -> Page<Review> {
        guard
            let page = try await ReviewQueries.list(
                of: product, order: order, viewer: viewer, limit: limit, cursor: cursor, on: database.client, logger: logger)
        else { throw ContentError.productNotFound }
        return page
    }

    /// Writes or rewrites the customer's review; `created` says which.
    package func put(rating: Int, body: String?, of product: ProductID, by customer: UserID, logger: Logger) async throws -> (Review, created: Bool) {
        guard Review.ratingRange.contains(rating) else { throw ContentError.invalidField("rating", "A rating is 1 to 5 stars.") }
        let body = try ContentText.body(body ?? "", maximum: Review.bodyLength)
        return try await database.transaction(logger: logger) { connection in
            switch try await ReviewQueries.eligibility(of: product, for: customer, on: connection, logger: logger) {
            case .productNotFound: throw ContentError.productNotFound
            case .notPurchased: throw ContentError.notPurchased
            case .allowed:
                try await PostingQueries.admit(customer, on: connection, logger: logger)
                guard
                    let written = try await ContentError.mappingDatabaseErrors({
                        try await ReviewQueries.write(rating: rating, body: body, of: product, by: customer, on: connection, logger: logger)
                    })
                else { throw ContentError.notPurchased }
                return written
            }
        }
    }

    package func delete(of product: ProductID, by customer: UserID, logger: Logger) async throws {
        guard try await ReviewQueries.delete(of: product, by: customer, on: database.client, logger: logger) else {
            throw ContentError.reviewNotFound
        }
    }

    /// Counts the viewer's vote once; their own review is refused.
    package func markHelpful(_ id: ReviewID, by viewer: Viewer, logger: Logger) async throws -> Review {
        try await database.transaction(logger: logger) { connection in
            switch try await ReviewQueries.markHelpful(id, by: viewer, on: connection, logger: logger) {
            case .own: throw ContentError.ownReview
            case .notFound: throw ContentError.reviewNotFound
            case .counted(let review): return review
            }
        }
    }
}
