import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Moderation, `/console/moderation`, for a store's manager (their store's content) and the
/// chain's admin (all of it), issue 31: open reports with what was reported and by whom it was
/// written, Hide and Restore buttons, Block author; and the authors blocked, each with Unblock.
/// Each button is its API operation (`hideContent`, `restoreContent`, `blockAuthor`,
/// `unblockAuthor`) through `Moderation`.
extension ConsoleController {
    var moderation: Moderation { services.moderation }

    func registerModeration(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/moderation") { request, context in
            try await page(request, context, operation: "listReports") { visit in
                try await moderationPage(visit, notice: nil)
            }
        }
        router.post("/console/moderation/:kind/:contentId/:verb") { request, context in
            let kind = ContentKind(rawValue: context.parameters.get("kind") ?? "")
            let id = UUID(uuidString: context.parameters.get("contentId") ?? "")
            let hide = context.parameters.get("verb") == "hide"
            return try await moderationAction(request, context, operation: hide ? "hideContent" : "restoreContent") { visit, scope in
                guard let kind, let id else { throw ContentError.commentNotFound }
                let done = try await moderation.moderate(kind, id, hide: hide, by: visit.identity.userID, in: scope, logger: visit.logger)
                return "The \(kind.rawValue) is \(done.hidden ? "hidden" : "shown again"); \(done.resolved) report(s) resolved."
            }
        }
        router.post("/console/moderation/blocks") { request, context in
            try await moderationAction(request, context, operation: "blockAuthor") { visit, scope in
                guard let user = visit.form.text("userId").flatMap(UserID.init) else { throw ContentError.userNotFound }
                let block = try await moderation.block(
                    user, reason: visit.form.text("reason"), by: visit.identity.userID, in: scope, logger: visit.logger)
                return "\(block.name) can no longer post."
            }
        }
        router.post("/console/moderation/blocks/:userId/delete") { request, context in
            let user = UserID(context.parameters.get("userId") ?? "")
            return try await moderationAction(request, context, operation: "unblockAuthor") { visit, scope in
                guard let user else { throw ContentError.userNotFound }
                try await moderation.unblock(user, in: scope, logger: visit.logger)
                return "The author may post again."
            }
        }
    }

    /// A moderator's button: the operation's check, then `body` in the caller's scope (a
    /// manager's store, or every store for the chain's admin); its sentence, or the refusal's,
    /// is shown above the page drawn again.
    private func moderationAction(
        _ request: Request, _ context: AppRequestContext, operation: String,
        _ body: @escaping @Sendable (PageVisit, StoreScope) async throws -> String
    ) async throws -> Response {
        try await page(request, context, operation: operation) { visit in
            let scope = try StoreScope(managerOrAdmin: visit.identity)
            do {
                return try await moderationPage(visit, notice: Notice(ok: true, text: try await body(visit, scope)))
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await moderationPage(visit, notice: Notice(ok: false, text: refused.message), status: refused.status)
            }
        }
    }

    private func moderationPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let scope = try StoreScope(managerOrAdmin: visit.identity)
        let csrf = ConsolePage.csrfInput(visit.session)
        let reports = try await moderation.reports(resolved: false, in: scope, limit: 100, cursor: nil, logger: visit.logger).items
        let blocks = try await moderation.blocks(in: scope, limit: 100, cursor: nil, logger: visit.logger).items
        return ModerationView.page(session: visit.session, csrf: csrf, notice: notice, reports: reports, blocks: blocks).response(status: status)
    }
}
