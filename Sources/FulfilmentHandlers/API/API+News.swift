import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// A store's news (issue 31): anyone reads what is published; the store's manager writes it.
/// The store in the path is the caller's for writes (`AccessMiddleware`); `News` binds the
/// caller's `StoreScope` too.
extension API {

    func listNews(_ input: Operations.ListNews.Input) async throws -> Operations.ListNews.Output {
        let store = try await existingStore(input.path.storeId)
        let page = try await services.news.published(at: store.id, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.NewsItem.init), nextCursor: page.nextCursor))))
    }

    func getNews(_ input: Operations.GetNews.Input) async throws -> Operations.GetNews.Output {
        let store = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        return .ok(.init(body: .json(.init(try await services.news.item(id, at: store, viewer: .current, logger: logger)))))
    }

    func createNews(_ input: Operations.CreateNews.Input) async throws -> Operations.CreateNews.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        let identity = try Identity.required
        let draft = try NewsItem.Draft(
            title: body.title, bodyMarkdown: body.bodyMarkdown, published: body.published ?? false, pinned: body.pinned ?? false)
        let item = try await services.news.create(draft, by: identity.userID, in: try StoreScope(staff: identity), logger: logger)
        return .created(.init(body: .json(.init(item))))
    }

    func updateNews(_ input: Operations.UpdateNews.Input) async throws -> Operations.UpdateNews.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        let draft = try NewsItem.Draft(
            title: body.title, bodyMarkdown: body.bodyMarkdown, published: body.published ?? false, pinned: body.pinned ?? false)
        let item = try await services.news.update(id, draft, in: try StoreScope(staff: try Identity.required), logger: logger)
        return .ok(.init(body: .json(.init(item))))
    }

    func deleteNews(_ input: Operations.DeleteNews.Input) async throws -> Operations.DeleteNews.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        try await services.news.delete(id, in: try StoreScope(staff: try Identity.required), logger: logger)
        return .noContent(.init())
    }

    func getNewsImage(_ input: Operations.GetNewsImage.Input) async throws -> Operations.GetNewsImage.Output {
        let store = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        let image = try await services.news.image(of: id, at: store, viewer: .current, logger: logger)
        switch image.kind {
        case .png: return .ok(.init(headers: .init(eTag: image.etag), body: .png(HTTPBody(image.bytes))))
        case .jpeg: return .ok(.init(headers: .init(eTag: image.etag), body: .jpeg(HTTPBody(image.bytes))))
        }
    }

    func uploadNewsImage(_ input: Operations.UploadNewsImage.Input) async throws -> Operations.UploadNewsImage.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        let image: ProductImage =
            switch input.body {
            case .png(let body): try await uploadedImage(body, declared: .png)
            case .jpeg(let body): try await uploadedImage(body, declared: .jpeg)
            case .binary(let body): try await uploadedImage(body, declared: nil)
            }
        let item = try await services.news.setImage(image, of: id, in: try StoreScope(staff: try Identity.required), logger: logger)
        return .ok(.init(body: .json(.init(item))))
    }

    func listNewsComments(_ input: Operations.ListNewsComments.Input) async throws -> Operations.ListNewsComments.Output {
        let store = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        let page = try await services.comments.list(
            on: .news(id, store: store), viewer: .current, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.Comment.init), nextCursor: page.nextCursor))))
    }

    func createNewsComment(_ input: Operations.CreateNewsComment.Input) async throws -> Operations.CreateNewsComment.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let store = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let id = NewsID(input.path.newsId) else { throw ContentError.newsNotFound }
        let comment = try await services.comments.create(
            on: .news(id, store: store), body: body.bodyMarkdown, by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(comment))))
    }
}

extension Components.Schemas.NewsItem {
    init(_ item: NewsItem) {
        self.init(
            id: item.id.description, storeId: item.store.description, title: item.title, bodyMarkdown: item.bodyMarkdown,
            bodyHtml: Markdown.html(item.bodyMarkdown), published: item.published, publishedAt: item.publishedAt, pinned: item.pinned,
            imageUrl: item.hasImage ? "/v1/stores/\(item.store.description)/news/\(item.id.description)/image" : nil, commentCount: item.commentCount,
            createdAt: item.createdAt, updatedAt: item.updatedAt)
    }
}

extension Components.Schemas.Author {
    init(_ author: Author) {
        self.init(id: author.id?.description, name: author.id == nil ? Author.formerName : author.name)
    }
}
