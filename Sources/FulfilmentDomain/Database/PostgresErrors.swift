import PostgresNIO

/// SQLSTATEs the domain cares about, so constraint violations become clear client errors
/// (422/409) instead of 500s. Map them to domain errors next to the query that can raise them.
package enum SQLState {
    package static let uniqueViolation = "23505"
    package static let foreignKeyViolation = "23503"
    package static let checkViolation = "23514"
    /// An exclusion constraint refused the row (two sales of a product at a store that overlap).
    package static let exclusionViolation = "23P01"
    package static let serializationFailure = "40001"
    package static let deadlockDetected = "40P01"
    package static let invalidTextRepresentation = "22P02"
    package static let numericValueOutOfRange = "22003"
    package static let characterNotInRepertoire = "22021"
    package static let untranslatableCharacter = "22P05"
    /// The server could not write a file: its filesystem is full (`ENOSPC` on a table, an index
    /// or the WAL). PostgreSQL rolls the statement's transaction back.
    package static let diskFull = "53100"
    /// The server is going away or not yet taking connections (`admin_shutdown`, `crash_shutdown`,
    /// `cannot_connect_now`): the database is unavailable, not the request wrong.
    package static let serverGoingAway = ["57P01", "57P02", "57P03"]
    /// `place_order` refused the checkout (this service's own code, `sql/routines/place_order.sql`): the refusal's
    /// code is the message (`cart_empty`, `insufficient_stock`...), its details JSON in DETAIL.
    /// Nothing was written.
    package static let placeOrderRefused = "FC000"
}

extension Error {
    /// The SQLSTATE of a PostgreSQL error, if this is one.
    package var sqlState: String? { (self as? PSQLError)?.serverInfo?[.sqlState] }
    /// The violated constraint's name, if the server named one.
    package var constraintName: String? { (self as? PSQLError)?.serverInfo?[.constraintName] }

    /// A deadlock or serialisation failure: the transaction was rolled back and may simply run again.
    package var isTransientConflict: Bool { sqlState == SQLState.deadlockDetected || sqlState == SQLState.serializationFailure }

    /// PostgreSQL is short of something for a while, or gave up on a statement (issue 42): its
    /// resources (class 53: out of memory, too many connections, a configuration limit; a full
    /// disk is `isStorageFull`) or an operator's intervention (class 57: `statement_timeout`,
    /// `57014`, and the rest). Not the client's fault and not a bug: `503` with `Retry-After`,
    /// never a 500, and the statement's transaction was rolled back.
    package var isDatabaseStrained: Bool {
        guard let state = sqlState, state != SQLState.diskFull else { return false }
        return state.hasPrefix("53") || state.hasPrefix("57")
    }

    /// PostgreSQL's disk is full: the transaction was rolled back whole, and the same request
    /// works again once someone frees space (no restart). Not the client's fault, not a bug.
    package var isStorageFull: Bool { sqlState == SQLState.diskFull }

    /// What PostgreSQL refused about a value a client sent, as a client error, so it is never a
    /// 500: a number too large for its column, text PostgreSQL cannot store (a NUL byte).
    package var clientValueError: APIError? {
        switch sqlState {
        case SQLState.numericValueOutOfRange?:
            APIError(.unprocessableContent, "number_out_of_range", "A number in the request is too large.")
        case SQLState.characterNotInRepertoire?, SQLState.untranslatableCharacter?:
            APIError(.unprocessableContent, "invalid_text", "The request holds text that cannot be stored (such as a NUL character).")
        case SQLState.invalidTextRepresentation?:
            APIError(.unprocessableContent, "invalid_field", "A value in the request has the wrong form.")
        default: nil
        }
    }
}

/// The database's disk is full: nothing of the request was written, and it can be sent again
/// once space is freed. A person must act, so the client is told to wait longer than for a busy store.
package struct StorageFull: Error, APIErrorConvertible {
    package var apiError: APIError {
        APIError(
            .serviceUnavailable, "storage_full", "The store's database has run out of disk space; nothing was saved. Try again later.",
            headers: [.retryAfter: "30"])
    }
}

/// A domain error some of PostgreSQL's refusals stand for (a unique or check violation, a
/// `RAISE` with this service's own SQLSTATE). Each aggregate maps them in one place, its error's
/// `init?(databaseError:)`, and its queries run through ``mappingDatabaseErrors(_:)``, so domain
/// code and handlers only ever see the domain's error, never a `PSQLError` to interpret.
package protocol DatabaseErrorMapping: Error {
    /// The domain error `error` stands for, or nil when it is not one of this aggregate's.
    init?(databaseError error: any Error)
}

extension DatabaseErrorMapping {
    /// Runs `body`, rethrowing a database error this aggregate knows as its domain error and
    /// anything else unchanged.
    package static func mappingDatabaseErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self(databaseError: error) ?? error
        }
    }
}
