import Foundation
import FulfilmentDomain

/// Reports, hiding and blocks (issue 31). A manager moderates their store's content, the chain's
/// admin all of it: `Moderation` binds the caller's `StoreScope`.
extension API {

    func reportContent(_ input: Operations.ReportContent.Input) async throws -> Operations.ReportContent.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let kind = try ContentKind.matching(body.kind.rawValue)
        guard let id = UUID(uuidString: body.contentId) else { throw kind.notFound }
        let (report, created) = try await services.moderation.report(kind, id, reason: body.reason, by: try Identity.required, logger: logger)
        return created ? .created(.init(body: .json(try .init(report)))) : .ok(.init(body: .json(try .init(report))))
    }

    func listReports(_ input: Operations.ListReports.Input) async throws -> Operations.ListReports.Output {
        let scope = try StoreScope(managerOrAdmin: try Identity.required)
        let page = try await services.moderation.reports(
            resolved: input.query.state == .resolved, in: scope, limit: try pageSize(input.query.limit), cursor: input.query.cursor,
            logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.ContentReport.init), nextCursor: page.nextCursor))))
    }

    func hideContent(_ input: Operations.HideContent.Input) async throws -> Operations.HideContent.Output {
        .ok(.init(body: .json(try await moderate(kind: input.path.kind, id: input.path.contentId, hide: true))))
    }

    func restoreContent(_ input: Operations.RestoreContent.Input) async throws -> Operations.RestoreContent.Output {
        .ok(.init(body: .json(try await moderate(kind: input.path.kind, id: input.path.contentId, hide: false))))
    }

    private func moderate(kind: String, id text: String, hide: Bool) async throws -> Components.Schemas.ModerationResult {
        let identity = try Identity.required
        // A kind the contract does not name names nothing.
        guard let kind = ContentKind(rawValue: kind) else { throw APIError.notFound("The content") }
        guard let id = UUID(uuidString: text) else { throw kind.notFound }
        let done = try await services.moderation.moderate(
            kind, id, hide: hide, by: identity.userID, in: try StoreScope(managerOrAdmin: identity), logger: logger)
        return .init(
            kind: try .matching(kind.rawValue), contentId: id.uuidString.lowercased(), hidden: done.hidden,
            resolvedReports: done.resolved)
    }

    func listBlocks(_ input: Operations.ListBlocks.Input) async throws -> Operations.ListBlocks.Output {
        let scope = try StoreScope(managerOrAdmin: try Identity.required)
        let page = try await services.moderation.blocks(in: scope, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.PostingBlock.init), nextCursor: page.nextCursor))))
    }

    func blockAuthor(_ input: Operations.BlockAuthor.Input) async throws -> Operations.BlockAuthor.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let identity = try Identity.required
        guard let user = UserID(body.userId) else { throw ContentError.userNotFound }
        let block = try await services.moderation.block(
            user, reason: body.reason, by: identity.userID, in: try StoreScope(managerOrAdmin: identity), logger: logger)
        return .ok(.init(body: .json(.init(block))))
    }

    func unblockAuthor(_ input: Operations.UnblockAuthor.Input) async throws -> Operations.UnblockAuthor.Output {
        guard let user = UserID(input.path.userId) else { throw ContentError.userNotFound }
        try await services.moderation.unblock(user, in: try StoreScope(managerOrAdmin: try Identity.required), logger: logger)
        return .noContent(.init())
    }
}

extension Components.Schemas.ContentReport {
    init(_ report: ContentReport) throws {
        self.init(
            id: report.id.description, kind: try .matching(report.kind.rawValue), contentId: report.contentID.uuidString.lowercased(),
            storeId: report.store?.description, reason: report.reason, excerpt: report.excerpt, author: .init(report.author),
            hidden: report.hidden, createdAt: report.createdAt, resolvedAt: report.resolvedAt)
    }
}

extension Components.Schemas.PostingBlock {
    init(_ block: PostingBlock) {
        self.init(
            userId: block.user.description, name: block.name, storeId: block.store?.description, reason: block.reason,
            createdAt: block.createdAt)
    }
}
