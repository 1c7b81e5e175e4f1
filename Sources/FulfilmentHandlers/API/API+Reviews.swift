import Foundation
import FulfilmentDomain

/// Product reviews and ratings (issue 31).
extension API {

    func listReviews(_ input: Operations.ListReviews.Input) async throws -> Operations.ListReviews.Output {
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let order = try input.query.sort.map { try Review.Order.matching($0.rawValue) } ?? .newest
        let page = try await services.reviews.list(
            of: product, order: order, viewer: .current, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.Review.init), nextCursor: page.nextCursor))))
    }

    func putReview(_ input: Operations.PutReview.Input) async throws -> Operations.PutReview.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        let (review, created) = try await services.reviews.put(
            rating: body.rating, body: body.bodyMarkdown, of: product, by: try Identity.required.userID, logger: logger)
        return created ? .created(.init(body: .json(.init(review)))) : .ok(.init(body: .json(.init(review))))
    }

    func deleteReview(_ input: Operations.DeleteReview.Input) async throws -> Operations.DeleteReview.Output {
        let product = try ProductID.parse(input.path.productId, notFound: .productNotFound)
        try await services.reviews.delete(of: product, by: try Identity.required.userID, logger: logger)
        return .noContent(.init())
    }

    func markReviewHelpful(_ input: Operations.MarkReviewHelpful.Input) async throws -> Operations.MarkReviewHelpful.Output {
        guard let id = ReviewID(input.path.reviewId) else { throw ContentError.reviewNotFound }
        return .ok(.init(body: .json(.init(try await services.reviews.markHelpful(id, by: .current, logger: logger)))))
    }
}

extension Components.Schemas.Review {
    init(_ review: Review) {
        self.init(
            id: review.id.description, productId: review.product.description, storeId: review.store.description,
            author: .init(review.author), rating: review.rating, bodyMarkdown: review.bodyMarkdown,
            bodyHtml: Markdown.html(review.bodyMarkdown), verifiedPurchase: true, helpfulCount: review.helpfulCount, hidden: review.hidden,
            createdAt: review.createdAt, updatedAt: review.updatedAt)
    }
}
