import Foundation

/// Where and how the service submits email (issue 44), parsed from a URL (`FULFILMENT_SMTP_URL`):
///
/// - `smtp://user:password@host:587`: submission with STARTTLS required (no TLS, no mail), then AUTH.
/// - `smtps://user:password@host:465`: TLS from the first byte (implicit TLS), then AUTH.
/// - `smtp://localhost:25`: a local relay with neither TLS nor AUTH; only to a loopback host
///   and only with no user (`?tls=none` asks for plaintext explicitly, also only on loopback).
///
/// The user and password are percent-decoded. The password may come from a file instead
/// (`passwordFile`, its trailing newline trimmed), so it need not sit in the environment.
/// `caFile` adds certificates to trust (a test server's self-signed one); verification of
/// the server's certificate and name is never turned off. `description` never shows the password.
package struct SMTPSettings: Sendable, CustomStringConvertible {
    /// How the connection is protected.
    package enum Security: Sendable, Equatable {
        /// Plain connection, then STARTTLS, required: a server that does not offer it gets no mail.
        case startTLS
        /// TLS from the start (`smtps://`).
        case implicitTLS
        /// No TLS at all: a loopback host only.
        case plaintext
    }

    package var host: String
    package var port: Int
    package var security: Security
    package var username: String?
    package var password: SMTPPassword?
    /// A PEM file of certificates to trust in addition to the system's.
    package var caFile: String?
    /// How long connecting (TCP and TLS) may take.
    package var connectTimeout: Duration = .seconds(10)
    /// How long one whole submission may take.
    package var totalTimeout: Duration = .seconds(60)

    /// Parses `url`; `passwordFile` names a file holding the password (the URL then has none).
    package init(url: String, passwordFile: String? = nil, caFile: String? = nil) throws(SMTPSettingsError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw SMTPSettingsError("the SMTP URL is not a URL")
        }
        guard var host = components.host, !host.isEmpty else { throw SMTPSettingsError("the SMTP URL has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else {
            throw SMTPSettingsError("the SMTP URL's host is not a host name")
        }
        guard components.path.isEmpty || components.path == "/" else {
            throw SMTPSettingsError("the SMTP URL has a path; expected smtp://user:password@host:port")
        }
        let requested = try Self.requestedTLS(components.queryItems ?? [])
        let loopback = IPAddress.isLoopback(host: host)
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        var password = components.password.flatMap { $0.isEmpty ? nil : $0 }
        if let passwordFile {
            guard password == nil else { throw SMTPSettingsError("the SMTP password is both in the URL and in a file") }
            password = try Self.readPassword(passwordFile)
        }
        if password != nil && username == nil { throw SMTPSettingsError("the SMTP URL has a password but no user") }
        for text in [username, password].compactMap(\.self) where text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw SMTPSettingsError("the SMTP user or password holds a line break")
        }

        let security: Security
        switch scheme {
        case "smtps":
            guard requested != .plaintext else { throw SMTPSettingsError("smtps:// is TLS: tls=none contradicts it") }
            security = .implicitTLS
        case "smtp":
            if requested == .plaintext || (requested == nil && loopback && username == nil) {
                guard loopback else {
                    throw SMTPSettingsError(
                        username == nil
                            ? "plaintext SMTP is for a loopback host only, not \(host)"
                            : "refusing to send an SMTP password in plaintext to \(host) (not a loopback host)")
                }
                security = .plaintext
            } else {
                security = .startTLS
            }
        default:
            throw SMTPSettingsError("the SMTP URL's scheme is \(scheme); expected smtp or smtps")
        }
        let port = components.port ?? (security == .implicitTLS ? 465 : security == .plaintext ? 25 : 587)
        guard (1...65535).contains(port) else { throw SMTPSettingsError("the SMTP port \(port) is out of range") }
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password.map(SMTPPassword.init)
        self.caFile = caFile
    }

    /// The URL libcurl connects to: no credentials (they go in their own options).
    var curlURL: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(name):\(port)"
    }

    package var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let name = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        let mode =
            switch security {
            case .startTLS: "STARTTLS required"
            case .implicitTLS: "implicit TLS"
            case .plaintext: "plaintext, loopback"
            }
        let auth = password == nil ? "" : ", password set"
        return "\(scheme)://\(user)\(name):\(port) (\(mode)\(auth))"
    }

    private static func requestedTLS(_ items: [URLQueryItem]) throws(SMTPSettingsError) -> Security? {
        var requested: Security?
        for item in items {
            guard item.name == "tls" else { throw SMTPSettingsError("the SMTP URL has an unknown parameter \(item.name)") }
            switch item.value?.lowercased() {
            case "none": requested = .plaintext
            case "starttls": requested = .startTLS
            default: throw SMTPSettingsError("the SMTP URL's tls is none or starttls")
            }
        }
        return requested
    }

    private static func readPassword(_ path: String) throws(SMTPSettingsError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SMTPSettingsError("cannot read the SMTP password file \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw SMTPSettingsError("the SMTP password file \(path) is empty") }
        return text
    }
}

/// An SMTP password: it prints, dumps and reflects as nothing, so no log line or error can show it.
package struct SMTPPassword: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package let value: String
    package init(_ value: String) { self.value = value }
    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A `FULFILMENT_SMTP_URL` (or password file) that cannot be used, and why; never shows the password.
package struct SMTPSettingsError: Error, CustomStringConvertible, Equatable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
