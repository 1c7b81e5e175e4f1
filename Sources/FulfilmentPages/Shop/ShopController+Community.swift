import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The store's news and the community's recipes in the shop (issue 45): `/shop/news` (the store's
/// published news, `listNews`), `/shop/news/{newsId}` (the article and its comments, `getNews`,
/// `listNewsComments`), `/shop/recipes` (search, `listRecipes`) and `/shop/recipes/{recipeId}`
/// (the recipe, `getRecipe`; where its products are, `locateProducts?recipeId=`; its comments,
/// `listRecipeComments`). Reading is open to visitors (``shopPage(_:_:operation:_:)``); writing a
/// comment (`createNewsComment`, `createRecipeComment`), reporting (`reportContent`) and putting
/// a recipe in the cart (`addRecipeToCart`) are a signed-in customer's forms, through
/// ``page(_:_:operation:store:_:)``: a visitor who sends one is asked to sign in and comes back
/// to the page.
///
/// News is the shop's store's (``shopPlace(_:)``): another store's item is not found here, as it
/// is not under this store in the API. Recipes are the chain's, as in the API; the store says
/// which ingredients it sells and where they are. Hidden content is not found for anyone but
/// its author (the domain's `Viewer` rule).
extension ShopController {
    static let newsPageSize = 10
    static let recipePageSize = 12
    static let commentPageSize = 50

    /// The sentences this part's redirects ask for (`?notice=commented`): fixed, as the shop's
    /// own (``redirectNotices``), so a link from elsewhere cannot put words on the page.
    func registerShopCommunity(on router: RouteCollection<AppRequestContext>) {
        registerShopNews(on: router)
        registerShopRecipes(on: router)
    }

    // MARK: News

    private func registerShopNews(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/news") { request, context in
            try await shopPage(request, context, operation: "listNews") { visit in
                let place = try await shopPlace(visit)
                guard let store = place.store else { return ConsolePage.redirect("/shop/stores") }
                return try await newsListPage(visit, place: place, store: store)
            }
        }
        router.get("/shop/news/:newsId") { request, context in
            let id = NewsID(context.parameters.get("newsId") ?? "")
            return try await shopPage(request, context, operation: "getNews") { visit in
                try await foundOrNot(visit) { try await articlePage(visit, id: id) }
            }
        }
        router.post("/shop/news/:newsId/comments") { request, context in
            let id = NewsID(context.parameters.get("newsId") ?? "")
            return try await customerForm(request, context, operation: "createNewsComment", back: Self.newsPath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    let (item, store) = try await newsItem(id, visit)
                    return try await postComment(on: .news(item.id, store: store.id), by: identity, visit, page: Self.newsPath(id)) {
                        notice, status, draft in try await articlePage(visit, id: id, notice: notice, status: status, draft: draft)
                    }
                }
            }
        }
        router.post("/shop/news/:newsId/comments/:commentId/report") { request, context in
            let id = NewsID(context.parameters.get("newsId") ?? "")
            let comment = CommentID(context.parameters.get("commentId") ?? "")
            return try await customerForm(request, context, operation: "reportContent", back: Self.newsPath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    _ = try await newsItem(id, visit)
                    return try await report(.comment, comment?.rawValue, by: identity, visit, page: Self.newsPath(id)) { notice, status in
                        try await articlePage(visit, id: id, notice: notice, status: status)
                    }
                }
            }
        }
    }

    static func newsPath(_ id: NewsID?) -> String { id.map { "/shop/news/\($0)" } ?? "/shop/news" }

    /// The shop's store's published item `id` (a draft, another store's, or no id at all: not found).
    private func newsItem(_ id: NewsID?, _ visit: ShopVisit, store: StoreRecord? = nil) async throws -> (NewsItem, StoreRecord) {
        guard let id else { throw ContentError.newsNotFound }
        var chosen = store
        if chosen == nil { chosen = try await shopPlace(visit).store }
        guard let store = chosen else { throw ContentError.newsNotFound }
        let item = try await services.news.item(id, at: store.id, viewer: .current, logger: visit.logger)
        // The store's staff may read a draft through the API; the shop shows what customers see.
        guard item.published else { throw ContentError.newsNotFound }
        return (item, store)
    }

    private func newsListPage(_ visit: ShopVisit, place: ShopPlace, store: StoreRecord) async throws -> Response {
        var items: [NewsItem] = []
        var next: String?
        var problem: Notice?
        do {
            let page = try await services.news.published(
                at: store.id, limit: Self.newsPageSize, cursor: Self.query(visit.request).text("cursor"), logger: visit.logger)
            (items, next) = (page.items, page.nextCursor)
        } catch {
            // A cursor that is not one of ours (typed, or from an old link) is a sentence, not a trap.
            problem = Notice(ok: false, text: try Self.clientRefusal(error).message)
        }
        let zone = try await services.orders.timeZone(ofStore: store.id, logger: visit.logger)
        return ShopNewsView.list(frame: shopFrame(visit, place: place, notice: problem), store: store, items: items, zone: zone, next: next)
            .response(status: problem == nil ? .ok : .unprocessableContent)
    }

    /// The article with a page of its comments; `notice`, `status` and `draft` after a refused form.
    private func articlePage(
        _ visit: ShopVisit, id: NewsID?, notice: Notice? = nil, status: HTTPResponse.Status = .ok, draft: String = ""
    ) async throws -> Response {
        let place = try await shopPlace(visit)
        guard place.store != nil else { return ConsolePage.redirect("/shop/stores") }
        let (item, store) = try await newsItem(id, visit, store: place.store)
        let (comments, next, problem) = try await commentsPage(on: .news(item.id, store: store.id), visit)
        let zone = try await services.orders.timeZone(ofStore: store.id, logger: visit.logger)
        let path = Self.newsPath(item.id)
        let forms = ShopNewsAndRecipesView.CommentForms(
            post: "\(path)/comments", report: "\(path)/comments", page: path, signIn: Self.signInPath(next: path + "#comments"), draft: draft)
        return ShopNewsView.article(
            frame: shopFrame(visit, place: place, notice: notice ?? problem), store: store, item: item,
            comments: comments, next: next, zone: zone, forms: forms
        ).response(status: status)
    }

    // MARK: Recipes

    private func registerShopRecipes(on router: RouteCollection<AppRequestContext>) {
        router.get("/shop/recipes") { request, context in
            try await shopPage(request, context, operation: "listRecipes") { visit in
                try await recipeListPage(visit)
            }
        }
        router.get("/shop/recipes/:recipeId") { request, context in
            let id = RecipeID(context.parameters.get("recipeId") ?? "")
            return try await shopPage(request, context, operation: "getRecipe") { visit in
                try await foundOrNot(visit) { try await recipePage(visit, id: id) }
            }
        }
        router.post("/shop/recipes/:recipeId/cart") { request, context in
            let id = RecipeID(context.parameters.get("recipeId") ?? "")
            return try await customerForm(request, context, operation: "addRecipeToCart", back: Self.recipePath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    guard let id else { throw ContentError.recipeNotFound }
                    let skipped = Self.skipped(visit.form)
                    do {
                        // Servings are read as every number of the shop is: "1e9", "0" or "abc" is a sentence.
                        let servings = try visit.form.int("servings", in: Recipe.servingsRange)
                        let result = try await services.recipes.addToCart(
                            id, servings: servings, skip: skipped.sorted(), customer: identity.userID, logger: visit.logger)
                        return try await recipePage(visit, id: id, notice: ShopRecipeView.cartOutcome(result))
                    } catch {
                        let refused = try Self.clientRefusal(error)
                        return try await recipePage(
                            visit, id: id, notice: Notice(ok: false, text: refused.message), status: refused.status,
                            servings: visit.form["servings"], skipped: skipped)
                    }
                }
            }
        }
        router.post("/shop/recipes/:recipeId/comments") { request, context in
            let id = RecipeID(context.parameters.get("recipeId") ?? "")
            return try await customerForm(request, context, operation: "createRecipeComment", back: Self.recipePath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    guard let id else { throw ContentError.recipeNotFound }
                    return try await postComment(on: .recipe(id), by: identity, visit, page: Self.recipePath(id)) {
                        notice, status, draft in try await recipePage(visit, id: id, notice: notice, status: status, draft: draft)
                    }
                }
            }
        }
        router.post("/shop/recipes/:recipeId/comments/:commentId/report") { request, context in
            let id = RecipeID(context.parameters.get("recipeId") ?? "")
            let comment = CommentID(context.parameters.get("commentId") ?? "")
            return try await customerForm(request, context, operation: "reportContent", back: Self.recipePath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    guard let id else { throw ContentError.recipeNotFound }
                    _ = try await services.recipes.recipe(id, at: nil, viewer: .current, logger: visit.logger)
                    return try await report(.comment, comment?.rawValue, by: identity, visit, page: Self.recipePath(id)) { notice, status in
                        try await recipePage(visit, id: id, notice: notice, status: status)
                    }
                }
            }
        }
        router.post("/shop/recipes/:recipeId/report") { request, context in
            let id = RecipeID(context.parameters.get("recipeId") ?? "")
            return try await customerForm(request, context, operation: "reportContent", back: Self.recipePath(id)) { visit, identity in
                try await foundOrNot(visit) {
                    guard let id else { throw ContentError.recipeNotFound }
                    return try await report(.recipe, id.rawValue, by: identity, visit, page: Self.recipePath(id)) { notice, status in
                        try await recipePage(visit, id: id, notice: notice, status: status)
                    }
                }
            }
        }
    }

    static func recipePath(_ id: RecipeID?) -> String { id.map { "/shop/recipes/\($0)" } ?? "/shop/recipes" }

    /// The ingredients the add-to-cart form leaves out: its ticked `skip-{index}` boxes. A name
    /// that is not such a box is not an ingredient and is ignored; an index the recipe has not is
    /// the domain's refusal.
    static func skipped(_ form: ConsoleForm) -> Set<Int> {
        Set(
            form.fields.compactMap { name, value in
                guard name.hasPrefix("skip-"), value == "on", let index = Int(name.dropFirst(5)),
                    (0..<Recipe.maximumIngredients).contains(index)
                else { return nil }
                return index
            })
    }

    private func recipeListPage(_ visit: ShopVisit) async throws -> Response {
        let place = try await shopPlace(visit)
        let query = Self.query(visit.request)
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var recipes: [Recipe] = []
        var next: String?
        var problem: Notice?
        do {
            guard text.unicodeScalars.count <= 100 else { throw ContentError.invalidField("q", "Search with at most 100 characters.") }
            let search = Recipes.Search(
                text: text.isEmpty ? nil : text, store: place.store?.id, limit: Self.recipePageSize, cursor: query.text("cursor"))
            let page = try await services.recipes.search(search, viewer: .current, logger: visit.logger)
            (recipes, next) = (page.items, page.nextCursor)
        } catch {
            problem = Notice(ok: false, text: try Self.clientRefusal(error).message)
        }
        return ShopRecipeView.list(
            frame: shopFrame(visit, place: place, notice: problem), store: place.store, text: text, recipes: recipes, next: next
        ).response(status: problem == nil ? .ok : .unprocessableContent)
    }

    /// The recipe at the shop's store (what it sells of it, and where), with a page of its
    /// comments; after a form, its outcome (`notice`, `status`) and what was typed, kept.
    private func recipePage(
        _ visit: ShopVisit, id: RecipeID?, notice: Notice? = nil, status: HTTPResponse.Status = .ok, draft: String = "",
        servings: String? = nil, skipped: Set<Int> = []
    ) async throws -> Response {
        guard let id else { throw ContentError.recipeNotFound }
        let place = try await shopPlace(visit)
        let store = place.store
        let recipe = try await services.recipes.recipe(id, at: store?.id, viewer: .current, logger: visit.logger)
        let located = try await store.asyncMap { try await services.recipes.locate(id, at: $0.id, viewer: .current, logger: visit.logger) }
        let (comments, next, problem) = try await commentsPage(on: .recipe(id), visit)
        let zone = try await store.asyncMap { try await services.orders.timeZone(ofStore: $0.id, logger: visit.logger) }
        let path = Self.recipePath(id)
        let page = ShopRecipeView.RecipePage(
            recipe: recipe, store: store, located: located ?? [], servings: servings, skipped: skipped, comments: comments, nextComments: next,
            zone: zone ?? nil,
            forms: .init(
                post: "\(path)/comments", report: "\(path)/comments", page: path, signIn: Self.signInPath(next: path + "#comments"), draft: draft),
            signIn: Self.signInPath(next: path))
        return ShopRecipeView.page(frame: shopFrame(visit, place: place, notice: notice ?? problem), page)
            .response(status: status)
    }

    // MARK: Shared

    /// A signed-in customer's form on these pages: through ``page(_:_:operation:store:_:)`` (the
    /// operation's access rule, the anti-forgery token); a visitor, who has no account to write
    /// with, is sent to sign in and brought back to `back`, the page the form was on.
    private func customerForm(
        _ request: Request, _ context: AppRequestContext, operation: String, back: String,
        _ body: @Sendable (ShopVisit, Identity) async throws -> Response
    ) async throws -> Response {
        guard request.cookies[ConsoleSession.cookieName] != nil,
            try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger) != nil
        else { return ConsolePage.redirect(Self.signInPath(next: back)) }
        return try await page(request, context, operation: operation) { visit in try await body(ShopVisit(visit), visit.identity) }
    }

    /// Runs a community page; a news item, recipe or comment that is not there for this reader
    /// (another store's, hidden, a draft, an address that is no id) is the shop's page saying
    /// so with the way back, answered 404 as the API answers it.
    private func foundOrNot(_ visit: ShopVisit, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as ContentError where error == .newsNotFound || error == .recipeNotFound {
            let back = error == .newsNotFound ? ("/shop/news", "Back to the news") : ("/shop/recipes", "Back to the recipes")
            let place = try? await shopPlace(visit)
            return ShopNewsAndRecipesView.notFound(frame: shopFrame(visit, place: place), text: error.apiError.message, back: back)
                .response(status: .notFound)
        }
    }

    /// A page of the target's comments, oldest first (`?cursor=` for the next); a cursor that is
    /// not one of ours is a sentence above the page, and the comments start again.
    private func commentsPage(on target: UserComment.Target, _ visit: ShopVisit) async throws -> ([UserComment], String?, Notice?) {
        let cursor = Self.query(visit.request).text("cursor")
        do {
            let page = try await services.comments.list(
                on: target, viewer: .current, limit: Self.commentPageSize, cursor: cursor, logger: visit.logger)
            return (page.items, page.nextCursor, nil)
        } catch {
            let refused = try Self.clientRefusal(error)
            guard cursor != nil, refused.status == .unprocessableContent else { throw error }
            let page = try await services.comments.list(on: target, viewer: .current, limit: Self.commentPageSize, cursor: nil, logger: visit.logger)
            return (page.items, page.nextCursor, Notice(ok: false, text: refused.message))
        }
    }

    /// Files the reader's report of a comment or recipe (`reportContent`) and goes back to `page`
    /// saying so (or that they had reported it already); refused (the content is not there, the
    /// reason too long), the page again with the sentence above it, drawn by `render`.
    /// A comment posted on `page` (news or a recipe): back to it at the new comment, or a
    /// refusal drawn by `render` above the page with what was typed kept.
    private func postComment(
        on target: UserComment.Target, by identity: Identity, _ visit: ShopVisit, page: String,
        render: (Notice, HTTPResponse.Status, String) async throws -> Response
    ) async throws -> Response {
        let body = visit.form["bodyMarkdown"] ?? ""
        do {
            let comment = try await services.comments.create(on: target, body: body, by: identity, logger: visit.logger)
            return ConsolePage.redirect(Self.backPath(page, notice: "commented") + "#comment-\(comment.id)")
        } catch {
            let refused = try Self.clientRefusal(error)
            return try await render(Notice(ok: false, text: refused.message), refused.status, body)
        }
    }

    private func report(
        _ kind: ContentKind, _ id: UUID?, by identity: Identity, _ visit: ShopVisit, page: String,
        render: (Notice, HTTPResponse.Status) async throws -> Response
    ) async throws -> Response {
        do {
            guard let id else { throw kind.notFound }
            let (_, created) = try await services.moderation.report(kind, id, reason: visit.form.text("reason"), by: identity, logger: visit.logger)
            let anchor = kind == .comment ? "#comment-\(id.uuidString.lowercased())" : ""
            return ConsolePage.redirect(Self.backPath(page, notice: created ? "reported" : "reported-before") + anchor)
        } catch {
            let refused = try Self.clientRefusal(error)
            return try await render(Notice(ok: false, text: refused.message), refused.status)
        }
    }
}
