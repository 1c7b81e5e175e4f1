/// How long a session token lasts: it ends after `idleSeconds` without a request, and
/// `maximumSeconds` after sign-in however busy it is. Both are checked in SQL against the
/// database's clock where the token is resolved (`SessionQueries.lookUp`), so every
/// instance agrees on when a session has expired.
///
/// Defaults: 12 hours idle (a till signed in at opening is still signed in at closing) and
/// 30 days in all (a customer's phone stays signed in for a month of weekly shops).
/// `FULFILMENT_SESSION_IDLE_MINUTES` and `FULFILMENT_SESSION_MAX_HOURS` change them.
public struct SessionLifetime: Sendable, Equatable {
    public var idleSeconds: Int
    public var maximumSeconds: Int

    public static let defaultIdleMinutes = 12 * 60
    public static let defaultMaximumHours = 30 * 24

    public init(idleSeconds: Int = defaultIdleMinutes * 60, maximumSeconds: Int = defaultMaximumHours * 3600) {
        precondition(idleSeconds > 0 && maximumSeconds > 0, "session lifetimes must be positive")
        self.idleSeconds = idleSeconds
        self.maximumSeconds = maximumSeconds
    }

    /// The lifetimes the environment asks for; a missing, malformed or non-positive value keeps its default.
    public static func from(environment: [String: String]) -> SessionLifetime {
        func positive(_ name: String) -> Int? { environment[name].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
        let idleMinutes = min(positive("FULFILMENT_SESSION_IDLE_MINUTES") ?? defaultIdleMinutes, 366 * 24 * 60)
        let maximumHours = min(positive("FULFILMENT_SESSION_MAX_HOURS") ?? defaultMaximumHours, 366 * 24)
        return SessionLifetime(idleSeconds: idleMinutes * 60, maximumSeconds: maximumHours * 3600)
    }

    /// A session's last use is written at most this often (to spare a write per request), so
    /// it must be well inside the idle limit or a session in use could look idle.
    package var touchSeconds: Int { max(1, min(60, idleSeconds / 2)) }
}
