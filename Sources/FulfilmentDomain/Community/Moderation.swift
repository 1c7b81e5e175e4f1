import Foundation
import Logging

/// What can be reported and hidden.
package enum ContentKind: String, Sendable, CaseIterable {
    case recipe
    case comment
    case review
}

/// A reader's report of a recipe, a comment or a review, as its moderators see it.
package struct ContentReport: Sendable, Equatable {
    package var id: ReportID
    package var kind: ContentKind
    package var contentID: UUID
    package var store: StoreID?
    package var reason: String
    package var excerpt: String
    package var author: Author
    package var hidden: Bool
    package var createdAt: Date
    package var resolvedAt: Date?

    package static let reasonLength = 500
}

/// An author a moderator stopped from posting.
package struct PostingBlock: Sendable, Equatable {
    package var user: UserID
    package var name: String
    package var store: StoreID?
    package var reason: String
    package var createdAt: Date
}

/// Reports, hiding and blocking. Anyone signed in reports; a store's manager moderates the
/// content of their store and the chain's admin all of it (a `StoreScope`, bound into every
/// statement, so a manager cannot reach another store's content or authors).
package struct Moderation: Sendable {
    package let database: Database

    /// Files the reader's report, or answers their open report of it (`created` false).
    package func report(_ kind: ContentKind, _ id: UUID, reason: String?, by reader: Identity, logger: Logger) async throws -> (
        ContentReport, created: Bool
    ) {
        let reason = try ContentText.body(reason ?? "", field: "reason", maximum: ContentReport.reasonLength)
        let viewer = Viewer(user: reader.userID, role: reader.role, store: reader.storeID)
        guard let filed = try await ModerationQueries.report(kind, id, reason: reason, by: viewer, on: database.client, logger: logger) else {
            throw kind.notFound
        }
        return filed
    }

    package func reports(resolved: Bool, in scope: StoreScope, limit: Int, cursor: String?, logger: Logger) async throws -> Page<ContentReport> {
        try await ModerationQueries.reports(resolved: resolved, in: scope, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Hides (or restores) the content and resolves its reports: (hidden, reports resolved).
    package func moderate(_ kind: ContentKind, _ id: UUID, hide: Bool, by moderator: UserID, in scope: StoreScope, logger: Logger) async throws -> (
        hidden: Bool, resolved: Int
    ) {
        guard
            let done = try await ModerationQueries.moderate(
                kind, id, hide: hide, by: moderator, in: scope, on: database.client, logger: logger)
        else { throw kind.notFound }
        return done
    }

    package func blocks(in scope: StoreScope, limit: Int, cursor: String?, logger: Logger) async throws -> Page<PostingBlock> {
        try await ModerationQueries.blocks(in: scope, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Blocks an author: a manager, only one who wrote content at their store (not themselves).
    package func block(_ user: UserID, reason: String?, by moderator: UserID, in scope: StoreScope, logger: Logger) async throws -> PostingBlock {
        let reason = try ContentText.body(reason ?? "", field: "reason", maximum: ContentReport.reasonLength)
        guard user != moderator else { throw ContentError.invalidField("userId", "You cannot block yourself.") }
        guard
            let block = try await ModerationQueries.block(
                user, reason: reason, by: moderator, in: scope, on: database.client, logger: logger)
        else { throw ContentError.userNotFound }
        return block
    }

    package func unblock(_ user: UserID, in scope: StoreScope, logger: Logger) async throws {
        guard try await ModerationQueries.unblock(user, in: scope, on: database.client, logger: logger) else {
            throw ContentError.userNotFound
        }
    }
}

extension ContentKind {
    package var notFound: ContentError {
        switch self {
        case .recipe: .recipeNotFound
        case .comment: .commentNotFound
        case .review: .reviewNotFound
        }
    }
}
