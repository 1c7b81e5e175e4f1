import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// A product's own page, `/shop/products/{slug}` (`getProduct`, `listReviews`): a stable,
/// shareable address linked from every listing, open to visitors; and its forms for a
/// signed-in customer: a review (`putReview`, after a purchase), "helpful"
/// (`markReviewHelpful`) and "report" (`reportContent`) on another's review.
extension ShopController {
    static let reviewsPageSize = 10

    func registerShopProducts(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/products/:slug") { request, context in
            let slug = context.parameters.get("slug") ?? ""
            return try await shopPage(request, context, operation: "getProduct") { visit in
                try await productPage(visit, slug: slug)
            }
        }
        router.post("/shop/products/:slug/review") { request, context in
            let slug = context.parameters.get("slug") ?? ""
            return try await page(request, context, operation: "putReview") { page in
                let visit = ShopVisit(page)
                let product = try await services.catalogue.productPage(slug: slug, at: nil, logger: visit.logger)
                return try await shopForm(
                    visit, render: { notice, status in try await productPage(visit, slug: slug, notice: notice, status: status) }
                ) {
                    // A typed rating is bounded before anything else: "5e9" is a sentence, never a trap.
                    guard let rating = try? visit.form.int("rating", in: Review.ratingRange) else {
                        throw ContentError.invalidField("rating", "A rating is 1 to 5 stars.")
                    }
                    let (_, created) = try await services.reviews.put(
                        rating: rating, body: visit.form["body"], of: product.id, by: page.identity.userID, logger: visit.logger)
                    return created ? "reviewed" : "review-updated"
                }
            }
        }
        for (action, operation) in [("helpful", "markReviewHelpful"), ("report", "reportContent")] {
            router.post(RouterPath("/shop/reviews/:reviewId/\(action)")) { request, context in
                let reviewID = context.parameters.get("reviewId") ?? ""
                return try await page(request, context, operation: operation) { page in
                    let visit = ShopVisit(page)
                    let back = SignInLanding.next(visit.form["back"]) ?? "/shop"
                    do {
                        guard let id = ReviewID(reviewID) else { throw ContentError.reviewNotFound }
                        if action == "helpful" {
                            _ = try await services.reviews.markHelpful(id, by: Viewer.current, logger: visit.logger)
                        } else {
                            _ = try await services.moderation.report(
                                .review, id.rawValue, reason: visit.form["reason"], by: page.identity, logger: visit.logger)
                        }
                        return ConsolePage.redirect(Self.backPath(back, notice: action == "helpful" ? "helpful" : "reported"))
                    } catch {
                        let refused = try Self.clientRefusal(error)
                        return ConsolePage.message(
                            "That did not work", refused.message, session: page.session, status: refused.status, back: (back, "Back"))
                    }
                }
            }
        }
    }

    /// The product's page at the shopper's store, with a page of its reviews (`?reviews=newest`
    /// or `helpful`, `&cursor=`).
    func productPage(_ visit: ShopVisit, slug: String, notice: Notice? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let place = try await shopPlace(visit)
        let product = try await services.catalogue.productPage(slug: slug, at: place.store?.id, logger: visit.logger)
        let query = Self.query(visit.request)
        let order = Review.Order(rawValue: query["reviews"] ?? "") ?? .newest
        let viewer = visit.session.map { Viewer(user: $0.identity.userID, role: $0.identity.role, store: $0.identity.storeID) } ?? .anonymous
        let page: Page<Review>
        do {
            page = try await services.reviews.list(
                of: product.id, order: order, viewer: viewer, limit: Self.reviewsPageSize, cursor: query.text("cursor"), logger: visit.logger)
        } catch {
            // A cursor from elsewhere is a sentence, and the first page.
            let refused = try Self.clientRefusal(error)
            let first = try await services.reviews.list(
                of: product.id, order: order, viewer: viewer, limit: Self.reviewsPageSize, cursor: nil, logger: visit.logger)
            return ShopProductView.page(
                frame: shopFrame(visit, place: place, notice: Notice(ok: false, text: refused.message)), store: place.store, product: product,
                reviews: .init(page: first, order: order, own: nil), favourite: false,
                publicURL: services.providerSignIn.settings.publicURL
            ).response(status: refused.status)
        }
        var favourite = false
        if let customer = visit.customer, let store = place.store {
            let favourites = try await services.favourites.list(of: customer, at: store.id, limit: 100, cursor: nil, logger: visit.logger)
            favourite = favourites.items.contains { $0.0.id == product.id }
        }
        let own = visit.customer.flatMap { customer in page.items.first { $0.author.id == customer } }
        return ShopProductView.page(
            frame: shopFrame(visit, place: place, notice: notice), store: place.store, product: product,
            reviews: .init(page: page, order: order, own: own), favourite: favourite, publicURL: services.providerSignIn.settings.publicURL
        ).response(status: status)
    }
}
