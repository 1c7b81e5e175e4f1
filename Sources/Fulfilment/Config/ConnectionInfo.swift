import CLibPQ
import Foundation

/// A PostgreSQL connection description, resolved exactly the way `psql` resolves it.
///
/// Parsing is delegated to libpq (`PQconninfoParse` for the string, `PQconndefaults` for the
/// `PG*` environment variables and built-in defaults), so every form libpq accepts works here:
/// `postgresql://` URIs, `key=value` strings, unix-socket hosts and `sslmode`.
public struct ConnectionInfo: Sendable, Equatable {
    /// The resolved libpq keywords (`host`, `port`, `user`, `dbname`, `password`, `sslmode`, ...).
    /// Only keywords with a value are present.
    public var options: [String: String]

    public init(options: [String: String]) {
        self.options = options
    }

    /// Thrown when libpq rejects a connection string; `message` is libpq's own words.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { "invalid database connection string: \(message)" }
    }

    /// Parses `conninfo` (a URI or `key=value` string; empty means "defaults only") and fills
    /// every keyword it leaves unset from libpq's defaults, which read the `PG*` variables.
    public static func parse(_ conninfo: String) throws(ParseError) -> ConnectionInfo {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(conninfo, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            throw ParseError(message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        defer { PQconninfoFree(parsed) }
        var options = Self.read(parsed)
        if let defaults = PQconndefaults() {
            defer { PQconninfoFree(defaults) }
            for (key, value) in Self.read(defaults) where options[key] == nil {
                options[key] = value
            }
        }
        try refuseLists(in: options)
        return ConnectionInfo(options: options)
    }

    /// libpq takes comma-separated lists of hosts, addresses and ports and tries them in turn
    /// (failover). This service connects to one server: handed to PostgresNIO, `a,b` would be
    /// looked up as one hostname and fail with a puzzling DNS error, or a port list would be
    /// read as the default port. Until failover is supported, such a string is refused.
    private static func refuseLists(in options: [String: String]) throws(ParseError) {
        for keyword in ["host", "hostaddr", "port"] {
            guard let value = options[keyword], value.contains(",") else { continue }
            throw ParseError(
                message: """
                    it names several servers (\(keyword) \(value)), but fulfilment connects to one PostgreSQL server \
                    and has no failover yet: give a single host and port
                    """)
        }
    }

    private static func read(_ list: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var result: [String: String] = [:]
        var cursor = list
        while let keyword = cursor.pointee.keyword {
            if let value = cursor.pointee.val, value.pointee != 0 {
                result[String(cString: keyword)] = String(cString: value)
            }
            cursor += 1
        }
        return result
    }

    public var host: String { options["host"] ?? options["hostaddr"] ?? "/var/run/postgresql" }
    public var port: Int { options["port"].flatMap { Int($0) } ?? 5432 }
    public var user: String { options["user"] ?? "postgres" }
    public var password: String? { options["password"] }
    public var database: String { options["dbname"] ?? user }
    public var sslMode: String { options["sslmode"] ?? "prefer" }

    /// A host that starts with `/` names the directory of a unix-domain socket, as in libpq.
    public var unixSocketPath: String? {
        host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil
    }

    /// The same connection with another database name (used to create and drop databases).
    public func with(database: String) -> ConnectionInfo {
        var copy = self
        copy.options["dbname"] = database
        return copy
    }

    /// A description safe for logs: never includes the password.
    public var redacted: String {
        let target = unixSocketPath ?? "\(host):\(port)"
        return "\(user)@\(target)/\(database)"
    }
}

/// Interpolated into a log line or a test's failure message, a connection shows no password.
extension ConnectionInfo: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { redacted }
    public var debugDescription: String { redacted }
}
