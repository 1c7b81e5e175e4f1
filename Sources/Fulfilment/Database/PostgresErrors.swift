import PostgresNIO

/// SQLSTATEs the domain cares about, so constraint violations become clear client errors
/// (422/409) instead of 500s. Map them to domain errors next to the query that can raise them.
enum SQLState {
    static let uniqueViolation = "23505"
    static let foreignKeyViolation = "23503"
    static let checkViolation = "23514"
    static let notNullViolation = "23502"
    static let serializationFailure = "40001"
    static let deadlockDetected = "40P01"
    static let invalidTextRepresentation = "22P02"
}

extension Error {
    /// The SQLSTATE of a PostgreSQL error, if this is one.
    var sqlState: String? { (self as? PSQLError)?.serverInfo?[.sqlState] }
    /// The violated constraint's name, if the server named one.
    var constraintName: String? { (self as? PSQLError)?.serverInfo?[.constraintName] }
}
