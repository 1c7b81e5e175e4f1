import Foundation
import Logging
import PostgresNIO

/// The SQL of live event streams' claims on their sessions (`open_event_stream` and `renew_event_stream` in `sql/routines/`).
package enum EventStreamQueries {
    /// Opens stream `id` for `session` unless it has `cap` open (with `takeOver`, in the place
    /// of its stalest); the session's deadline, and whether it opened (nil deadline: the session
    /// is not live).
    package static func open(
        _ id: EventStreamID, session: SessionID, cap: Int, staleAfter: Duration, lifetime: SessionLifetime, takeOver: Bool,
        on client: PostgresClient, logger: Logger
    ) async throws -> (opened: Bool, deadline: Date?) {
        let rows = try await client.run(
            """
            SELECT opened, deadline FROM open_event_stream(
                \(id.rawValue), \(session.rawValue), \(Int32(clamping: cap)), \(staleAfter.inSeconds),
                \(Int32(clamping: lifetime.idleSeconds)), \(Int32(clamping: lifetime.maximumSeconds)), \(takeOver))
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (try r["opened"].decode(Bool.self), try r["deadline"].decode(Date?.self))
        }
        return (false, nil)
    }

    /// Renews the stream's row; its session's deadline, nil when the session is no longer live.
    package static func renew(_ id: EventStreamID, lifetime: SessionLifetime, on client: PostgresClient, logger: Logger) async throws -> Date? {
        let rows = try await client.run(
            """
            SELECT renew_event_stream(\(id.rawValue), \(Int32(clamping: lifetime.idleSeconds)), \(Int32(clamping: lifetime.maximumSeconds)))
            """, logger: logger)
        for try await deadline in rows.decode(Date?.self) { return deadline }
        return nil
    }

    package static func close(_ id: EventStreamID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run("DELETE FROM event_streams WHERE id = \(id.rawValue)", logger: logger)
    }
}
