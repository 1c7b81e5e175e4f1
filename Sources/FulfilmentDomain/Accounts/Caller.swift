import Foundation
import PostgresNIO
import Synchronization

/// A bearer token the middleware has not resolved. On the hottest routes
/// (`AccessPolicy.resolvedInStatement`) resolving it would be a round trip of its own, so the
/// middleware passes this on instead of an `Identity`, and the handler's first statement
/// includes `session_caller` (`sql/routines/session_caller.sql`) and returns the caller's columns first. The
/// handler then admits the caller (``admit(_:)``: the same lifetimes and the same
/// `AccessPolicy` check as the middleware) before it uses anything else the statement read;
/// the statement itself reads but writes nothing a caller could be refused.
package struct PresentedSession: Sendable {
    package var tokenHash: [UInt8]
    package var lifetime: SessionLifetime
    package var operationID: String
    package var storeInPath: String?
    /// Whether ``admit(_:)`` has given its verdict: a request that fails before then (a
    /// malformed body, a missing header) is given the middleware's verdict first, so who is
    /// asking is answered before what is wrong with the request, as on every other route.
    package let admission = Admission()

    package final class Admission: Sendable {
        private let given = Atomic(false)
        package var isGiven: Bool { given.load(ordering: .acquiring) }
        package func give() { given.store(true, ordering: .releasing) }
    }

    @TaskLocal package static var current: PresentedSession?

    /// The caller a lookup found, authorised for this operation: 401 when there is none or its
    /// session ended, 401 `session_expired` when it expired, 403 when the role may not call it.
    package func admit(_ lookup: SessionLookup) throws(AccessError) -> Identity {
        admission.give()
        switch lookup {
        case .live(let identity):
            try AccessPolicy.authorize(operationID, identity: identity, storeInPath: storeInPath)
            return identity
        case .expired: throw .sessionExpired
        case .unknown: throw .unauthenticated
        }
    }
}

/// Who is calling, as a handler holds it: already resolved (by the middleware, the console's
/// session, or the seed acting for a customer), or a token its first statement resolves.
/// Statements that take a `Caller` begin `FROM \(caller: caller) c` and return
/// ``columns`` first, so both kinds read the same.
package enum Caller: Sendable {
    case resolved(Identity)
    case presented(PresentedSession)

    /// This request's caller: the middleware resolved it or passed its token on.
    package static var current: Caller {
        get throws(AccessError) {
            if let identity = Identity.current { return .resolved(identity) }
            if let session = PresentedSession.current { return .presented(session) }
            throw .unauthenticated
        }
    }

    /// The caller's columns, as a statement over `\(caller:)` aliased `c` returns them first.
    package static let columns =
        "c.user_id AS caller_user_id, c.role AS caller_role, c.store_id AS caller_store_id, c.session_id AS caller_session_id, c.expired AS caller_expired"
    package static let columnCount = 5

    /// The roles that may call this caller's operation, for a statement that writes before the
    /// caller is admitted (`appendInterpolation(admittedUser:)`). Only for operations with no
    /// store in their path: the store check is the middleware's and `AccessPolicy`'s alone.
    package var permittedRoles: [String] {
        switch self {
        case .resolved(let identity): [identity.role.rawValue]
        case .presented(let session):
            Role.allCases.filter { AccessPolicy.operations[session.operationID]?.allows($0) == true }.map(\.rawValue)
        }
    }

    /// The caller a statement's first columns describe, admitted for this request; `nil` when
    /// the statement returned no row (a presented token that names no live session).
    package func admit(_ row: PostgresRandomAccessRow?) throws -> Identity {
        switch self {
        case .resolved(let identity): return identity
        case .presented(let session): return try session.admit(row.map(SessionLookup.init) ?? .unknown)
        }
    }
}

extension SessionLookup {
    /// A lookup from `session_caller`'s columns (``Caller/columns``, named `caller_*` so they
    /// never meet the statement's own `user_id` or `store_id`).
    package init(_ row: PostgresRandomAccessRow) throws {
        let userID = try row["caller_user_id"].decode(UUID.self)
        let sessionID = try row["caller_session_id"].decode(UUID.self)
        if try row["caller_expired"].decode(Bool.self) {
            self = .expired
            return
        }
        // A role this version does not know admits no one (the session is as good as unknown).
        guard let role = Role(rawValue: try row["caller_role"].decode(String.self)) else {
            self = .unknown
            return
        }
        self = .live(
            Identity(
                userID: UserID(userID), role: role, storeID: try row["caller_store_id"].decode(UUID?.self).map(StoreID.init),
                sessionID: SessionID(sessionID)))
    }
}
