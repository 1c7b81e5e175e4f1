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
        // Several servers and nothing said: the one that takes writes, as issue 29 asks.
        if options["target_session_attrs"] == nil, [options["host"], options["hostaddr"]].contains(where: { $0?.contains(",") == true }) {
            options["target_session_attrs"] = "read-write"
        }
        if let defaults = PQconndefaults() {
            defer { PQconninfoFree(defaults) }
            for (key, value) in Self.read(defaults) where options[key] == nil {
                options[key] = value
            }
        }
        let info = ConnectionInfo(options: options)
        try info.checkLists()
        return info
    }

    /// One server of a list: where to connect.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : "\(host):\(port)" }
    }

    /// What the service needs of the server it works with (libpq's `target_session_attrs`).
    public static let sessionTargets: Set<String> = ["any", "read-write", "primary", "standby", "prefer-standby", "read-only"]

    /// libpq's lists, as libpq reads them: `host` (or `hostaddr`) a comma-separated list, and
    /// `port` one port for all or one per host. A list that does not match is refused here, with
    /// libpq's own rule, rather than at the first connection; so is an unknown target.
    private func checkLists() throws(ParseError) {
        let hosts = hostList
        let ports = (options["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false)
        if ports.count > 1 && ports.count != hosts.count {
            throw ParseError(message: "could not match \(ports.count) port numbers to \(hosts.count) hosts")
        }
        for port in ports where !port.isEmpty && Int(port).map({ !(1...65535).contains($0) }) ?? true {
            throw ParseError(message: "invalid port number: \"\(port)\"")
        }
        if let target = options["target_session_attrs"], !Self.sessionTargets.contains(target) {
            throw ParseError(message: "invalid target_session_attrs value: \"\(target)\"")
        }
    }

    private var hostList: [String] {
        let list = options["host"] ?? options["hostaddr"] ?? "/var/run/postgresql"
        return list.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
    }

    /// Every server named, in order, each with its port.
    public var endpoints: [Endpoint] {
        let hosts = hostList
        let ports = (options["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map { Int($0) ?? 5432 }
        return hosts.enumerated().map { index, host in
            Endpoint(host: host.isEmpty ? "/var/run/postgresql" : host, port: ports.isEmpty ? 5432 : ports[ports.count == 1 ? 0 : index])
        }
    }

    /// Whether several servers are named (a primary and its standbys).
    public var isMultiHost: Bool { endpoints.count > 1 }

    /// `target_session_attrs`: `any` unless said (`read-write` when several servers are named).
    public var sessionTarget: String { options["target_session_attrs"] ?? "any" }

    /// The same connection to one server of the list.
    public func only(_ endpoint: Endpoint) -> ConnectionInfo {
        var copy = self
        let numeric = options["host"] == nil && options["hostaddr"] != nil
        copy.options[numeric ? "hostaddr" : "host"] = endpoint.host
        copy.options["port"] = String(endpoint.port)
        copy.options["target_session_attrs"] = nil
        return copy
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

    /// The first server's host and port (the only one's, for a single server).
    public var host: String { endpoints[0].host }
    public var port: Int { endpoints[0].port }
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
        let target = isMultiHost ? endpoints.map(\.description).joined(separator: ",") : unixSocketPath ?? "\(host):\(port)"
        return "\(user)@\(target)/\(database)"
    }
}

/// Interpolated into a log line or a test's failure message, a connection shows no password.
extension ConnectionInfo: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { redacted }
    public var debugDescription: String { redacted }
}
