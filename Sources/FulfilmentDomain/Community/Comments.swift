import Logging

/// Comments on recipes and on published news: anyone reads them (hidden ones only their author
/// and moderators, `Viewer`), anyone signed in writes them (through `PostingQueries`' gate), and
/// their author deletes their own. Moderators hide rather than delete (`Moderation`).
package struct Comments: Sendable {
    package let database: Database

    package func list(on target: UserComment.Target, viewer: Viewer, limit: Int, cursor: String?, logger: Logger) async throws -> Page<UserComment> {
        guard let page = try await CommentQueries.list(on: target, viewer: viewer, limit: limit, cursor: cursor, on: database.client, logger: logger)
        else { throw target.notFound }
        return page
    }

    package func create(on target: UserComment.Target, body: String, by author: Identity, logger: Logger) async throws -> UserComment {
        let body = try ContentText.body(body, maximum: UserComment.bodyLength, required: true)
        let viewer = Viewer(user: author.userID, role: author.role, store: author.storeID)
        return try await database.transaction(logger: logger) { connection in
            try await PostingQueries.admit(author.userID, on: connection, logger: logger)
            let written = try await ContentError.mappingDatabaseErrors {
                try await CommentQueries.create(on: target, body: body, by: viewer, on: connection, logger: logger)
            }
            guard let comment = written else { throw target.notFound }
            return comment
        }
    }

    package func delete(_ id: CommentID, by user: UserID, logger: Logger) async throws {
        switch try await CommentQueries.delete(id, by: user, on: database.client, logger: logger) {
        case .deleted: return
        case .notAuthor: throw ContentError.notAuthor
        case .notFound: throw ContentError.commentNotFound
        }
    }
}

extension UserComment.Target {
    package var notFound: ContentError {
        switch self {
        case .recipe: .recipeNotFound
        case .news: .newsNotFound
        }
    }
}

/// What deleting one's own content came to.
package enum OwnDeletion: Sendable {
    case deleted
    case notAuthor
    case notFound
}
