import Foundation
import Logging

/// The SQL of the gate every post passes (a recipe, a comment, a review): a blocked author is refused, and
/// an account posts at most ``limit`` times in ``windowSeconds`` (`posting_refusal`, whose row
/// per account serialises one account's posts, so any number of instances share the count).
/// Run inside the post's own transaction: a post that fails gives its place back.
package enum PostingQueries {
    package static let limit = 20
    package static let windowSeconds = 600

    /// Takes a place for `user` or throws `postingBlocked` / `tooManyPosts`.
    package static func admit(_ user: UserID, on runner: some SQLRunner, logger: Logger) async throws {
        let rows = try await runner.run(
            "SELECT posting_refusal(\(user.rawValue), \(Int32(limit)), \(Int32(windowSeconds)))::text", logger: logger)
        guard let text = try rows.collect().first?.decode(String?.self), let data = text.data(using: .utf8) else { return }
        let refusal = try JSONDecoder().decode(Refusal.self, from: data)
        switch refusal.code {
        case "posting_blocked": throw ContentError.postingBlocked
        default: throw ContentError.tooManyPosts(retryAfterSeconds: refusal.retryAfterSeconds ?? windowSeconds)
        }
    }

    private struct Refusal: Decodable {
        package var code: String
        package var retryAfterSeconds: Int?
    }
}
