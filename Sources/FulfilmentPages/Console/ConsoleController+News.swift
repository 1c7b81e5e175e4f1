import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The news editor, `/console/news`, for managers (issue 31): the store's items, drafts
/// included, and a form to write one or edit one, with a Preview that shows the body as readers
/// will see it: the same Markdown rendering and allow-list sanitising the API answers
/// (`Markdown.html`), so what the preview shows is what is published. Saving is `createNews` /
/// `updateNews` through `News`, deleting `deleteNews`.
extension ConsoleController {
    var news: News { services.news }

    func registerNews(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/news") { request, context in
            try await page(request, context, operation: "createNews", store: { $0.storeID }) { visit in
                try await newsPage(visit, editing: nil, draft: nil, notice: nil)
            }
        }
        router.get("/console/news/:newsId") { request, context in
            let id = NewsID(context.parameters.get("newsId") ?? "")
            return try await page(request, context, operation: "updateNews", store: { $0.storeID }) { visit in
                let scope = try StoreScope(staff: visit.identity)
                guard let id, let item = try await news.all(in: scope, logger: visit.logger).first(where: { $0.id == id }) else {
                    return ConsolePage.message("Not found", "There is no such news item at your store.", session: visit.session, status: .notFound)
                }
                return try await newsPage(visit, editing: item, draft: nil, notice: nil)
            }
        }
        // One form: Preview draws it again with the body rendered; Save writes it (new or edited).
        router.post("/console/news") { request, context in
            try await newsAction(request, context, operation: "createNews")
        }
        router.post("/console/news/:newsId/delete") { request, context in
            let id = NewsID(context.parameters.get("newsId") ?? "")
            return try await storeForm(
                request, context, operation: "deleteNews", render: { try await newsPage($0, editing: nil, draft: nil, notice: $1, status: $2) }
            ) { visit, scope in
                guard let id else { throw ContentError.newsNotFound }
                try await news.delete(id, in: scope, logger: visit.logger)
                return "The news item was deleted."
            }
        }
    }

    /// The editor form as sent: its fields, and which item it edits (none: a new one).
    struct NewsForm: Sendable {
        var id: NewsID?
        var title: String
        var body: String
        var published: Bool
        var pinned: Bool

        init(_ form: ConsoleForm) {
            id = form.text("newsId").flatMap(NewsID.init)
            title = form["title"] ?? ""
            body = form["bodyMarkdown"] ?? ""
            published = form["published"] == "on"
            pinned = form["pinned"] == "on"
        }

        init(_ item: NewsItem) {
            (id, title, body, published, pinned) = (item.id, item.title, item.bodyMarkdown, item.published, item.pinned)
        }
    }

    private func newsAction(_ request: Request, _ context: AppRequestContext, operation: String) async throws -> Response {
        try await page(request, context, operation: operation, store: { $0.storeID }) { visit in
            let sent = NewsForm(visit.form)
            if visit.form["action"] == "preview" {
                return try await newsPage(visit, editing: nil, draft: sent, notice: nil, preview: true)
            }
            let scope = try StoreScope(staff: visit.identity)
            do {
                let draft = try NewsItem.Draft(title: sent.title, bodyMarkdown: sent.body, published: sent.published, pinned: sent.pinned)
                let item: NewsItem
                if let id = sent.id {
                    item = try await news.update(id, draft, in: scope, logger: visit.logger)
                } else {
                    item = try await news.create(draft, by: visit.identity.userID, in: scope, logger: visit.logger)
                }
                let said = item.published ? "“\(item.title)” is published." : "“\(item.title)” is saved as a draft."
                return try await newsPage(visit, editing: item, draft: nil, notice: Notice(ok: true, text: said))
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await newsPage(
                    visit, editing: nil, draft: sent, notice: Notice(ok: false, text: refused.message), status: refused.status)
            }
        }
    }

    private func newsPage(
        _ visit: PageVisit, editing item: NewsItem?, draft: NewsForm?, notice: Notice?, status: HTTPResponse.Status = .ok, preview: Bool = false
    ) async throws -> Response {
        let scope = try StoreScope(staff: visit.identity)
        let csrf = ConsolePage.csrfInput(visit.session)
        let items = try await news.all(in: scope, logger: visit.logger)
        let form = draft ?? item.map(NewsForm.init)
        return NewsView.page(session: visit.session, csrf: csrf, notice: notice, items: items, form: form, preview: preview).response(status: status)
    }
}
