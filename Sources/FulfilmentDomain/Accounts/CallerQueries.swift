import Foundation
import PostgresNIO

/// The SQL of the caller: a statement that resolves its own caller (`Caller.presented`) begins
/// `FROM \(caller: caller) c`, and one that writes for its caller takes its user from
/// `\(admittedUser: caller)`. Both are fragments of the statements in the other `*Queries`
/// files, kept here so the caller's SQL is read in one place.
extension PostgresQuery.StringInterpolation {
    /// For a statement that writes for its caller in the same round trip: the caller's user id
    /// (from `c`) only when their session is live and their role may call the operation
    /// (`Caller.permittedRoles`), else NULL. Every write takes its user from this, so a caller
    /// who will be refused writes nothing; the statement returns `Caller.columns` and the
    /// handler admits them as usual.
    package mutating func appendInterpolation(admittedUser caller: Caller) {
        appendInterpolation(unescaped: "CASE WHEN NOT c.expired AND c.role = ANY(")
        appendInterpolation(caller.permittedRoles)
        appendInterpolation(unescaped: ") THEN c.user_id END")
    }

    /// A FROM item with one row of the caller's columns (none when a presented token names no
    /// live session): `session_caller(...)` for a token, the identity's own values otherwise.
    package mutating func appendInterpolation(caller: Caller) throws {
        switch caller {
        case .presented(let session):
            try appendInterpolation(sessionCaller: session.tokenHash, lifetime: session.lifetime)
        case .resolved(let identity):
            appendInterpolation(unescaped: "(SELECT ")
            appendInterpolation(identity.userID.rawValue)
            appendInterpolation(unescaped: "::uuid AS user_id, ")
            appendInterpolation(identity.role.rawValue)
            appendInterpolation(unescaped: "::text AS role, ")
            appendInterpolation(identity.storeID?.rawValue)
            appendInterpolation(unescaped: "::uuid AS store_id, ")
            appendInterpolation(identity.sessionID.rawValue)
            appendInterpolation(unescaped: "::uuid AS session_id, false AS expired)")
        }
    }

    /// `session_caller(...)` (`sql/routines/session_caller.sql`) for a token's hash: a FROM item with the caller's
    /// columns, one row when the token names a live or expired session, none otherwise.
    package mutating func appendInterpolation(sessionCaller tokenHash: [UInt8], lifetime: SessionLifetime) throws {
        appendInterpolation(unescaped: "session_caller(")
        try appendInterpolation(Data(tokenHash))
        appendInterpolation(unescaped: ", ")
        appendInterpolation(Int32(clamping: lifetime.idleSeconds))
        appendInterpolation(unescaped: ", ")
        appendInterpolation(Int32(clamping: lifetime.maximumSeconds))
        appendInterpolation(unescaped: ", ")
        appendInterpolation(Int32(clamping: lifetime.touchSeconds))
        appendInterpolation(unescaped: ")")
    }
}
