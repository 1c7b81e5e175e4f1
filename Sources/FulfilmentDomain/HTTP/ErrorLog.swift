import OpenAPIRuntime

/// What a log line says of an error that escaped a request. Never the request itself: the
/// runtime's `ServerError` carries the whole request (its `Authorization` header, cookies, the
/// query string with cursors, the decoded body with passwords), and its reflection printed all of
/// it into the log (issues 41 and 42). The operation and the underlying error are what a reader
/// of the log needs; the request line already names the path.
package enum ErrorLog {
    /// Longest description logged: a PostgreSQL error with its query is well within it.
    package static let maximumLength = 2000

    package static func describe(_ error: any Error) -> String {
        if let server = error as? ServerError {
            return "\(server.operationID): \(describe(server.underlyingError))"
        }
        return String(String(reflecting: error).prefix(maximumLength))
    }
}
