import PostgresNIO

/// Who is reading community content, for what they may see of it: hidden content (a
/// moderator's doing) is shown only to its author and to its moderators (the manager of the
/// content's store, the chain's admin). Everyone else, signed in or not, sees it as gone.
/// `content_visible` (sql/routines) is the rule; every read binds a viewer into it.
package struct Viewer: Sendable, Equatable {
    package var user: UserID?
    package var role: Role?
    package var store: StoreID?

    package static let anonymous = Viewer()

    package init(user: UserID? = nil, role: Role? = nil, store: StoreID? = nil) {
        self.user = user
        self.role = role
        self.store = store
    }

    /// The caller of this request, if signed in.
    package static var current: Viewer {
        guard let identity = Identity.current else { return .anonymous }
        return Viewer(user: identity.userID, role: identity.role, store: identity.storeID)
    }
}

extension PostgresQuery.StringInterpolation {
    /// The viewer's three arguments of `content_visible(hidden_at, author_id, store_id, ...)`:
    /// user, role and store, bound.
    package mutating func appendInterpolation(viewer: Viewer) {
        appendInterpolation(viewer.user?.rawValue)
        appendInterpolation(unescaped: ", ")
        appendInterpolation(viewer.role?.rawValue)
        appendInterpolation(unescaped: "::text, ")
        appendInterpolation(viewer.store?.rawValue)
    }
}
