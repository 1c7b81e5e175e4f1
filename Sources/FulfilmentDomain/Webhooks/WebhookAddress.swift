import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where webhooks may be sent (issue 24): public internet addresses only, unless the operator
/// allows private ones (`FULFILMENT_WEBHOOK_ALLOW_PRIVATE=1`, `WebhookDispatchSettings.allowPrivate`).
///
/// Checked twice. When an endpoint is saved, a URL whose host is an address (in any spelling
/// `inet_aton` and browsers read as one: `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`) that
/// is not public, or is `localhost`, is refused. When each request is sent, the host is resolved
/// and **every** address it resolves to must be public; the request then goes to an address
/// that was checked, never through a second lookup (`WebhookSender`), so a DNS answer that
/// changes between the check and the connection (rebinding) cannot redirect it.
package enum WebhookAddress {
    /// Why a request was not sent; the text is what the endpoint's managers read in `lastError`,
    /// so it never names the address (a manager must not learn where an internal name points),
    /// and a name that does not resolve reads the same as one that resolves inside: two answers
    /// told a manager which internal names exist (issue 41).
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        case notPublic
        case doesNotResolve
        case invalidHost

        package static let unreachableSentence = "refused: the host does not resolve to public addresses only"

        package var description: String {
            switch self {
            case .notPublic, .doesNotResolve: Self.unreachableSentence
            case .invalidHost: "invalid URL"
            }
        }
    }

    /// A URL's host as the HTTP client reads it (Foundation's `URL.host`, IPv6 brackets trimmed):
    /// the name the request's `Host` header and TLS certificate check use.
    package static func host(ofURL text: String) -> String? {
        guard let host = URL(string: text)?.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { return String(host.dropFirst().dropLast()) }
        return host
    }

    /// What a host is: an address (an IPv6 literal, or an IPv4 one in any numeric spelling), or a
    /// name to resolve. Nil: it ends in a number but is no IPv4 address (`1.2.3.4.5`, `256.1.1.1`,
    /// `08.1.1.1`), which browsers refuse as a URL.
    package enum Host: Equatable {
        case address(IPAddress)
        case name(String)
    }

    package static func classify(_ host: String) -> Host? {
        if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return nil }
            return .address(.v6(withUnsafeBytes(of: &address) { Array($0) }))
        }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, endsInNumber(last) else { return .name(host) }
        return ipv4(labels).map { .address($0) }
    }

    /// The WHATWG URL standard's "ends in a number": the last label is decimal digits, or `0x`
    /// and hex digits.
    private static func endsInNumber(_ label: Substring) -> Bool {
        if !label.isEmpty, label.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = label.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// The WHATWG IPv4 parser (as `inet_aton`): one to four parts, each decimal, `0x` hex or
    /// `0`-led octal; all but the last at most 255, the last filling the remaining bytes.
    private static func ipv4(_ labels: [Substring]) -> IPAddress? {
        guard (1...4).contains(labels.count) else { return nil }
        var parts: [UInt64] = []
        for label in labels {
            guard let part = number(label) else { return nil }
            parts.append(part)
        }
        let last = parts.removeLast()
        guard parts.allSatisfy({ $0 <= 255 }), last < UInt64(1) << (8 * (4 - parts.count)) else { return nil }
        var value = last
        for (index, part) in parts.enumerated() { value += part << (8 * (3 - index)) }
        return .v4(UInt32(value))
    }

    private static func number(_ label: Substring) -> UInt64? {
        guard !label.isEmpty else { return nil }
        var digits = label
        var radix: UInt64 = 10
        if label.lowercased().hasPrefix("0x") {
            (digits, radix) = (label.dropFirst(2), 16)
            if digits.isEmpty { return 0 }
        } else if label.count > 1, label.hasPrefix("0") {
            (digits, radix) = (label.dropFirst(), 8)
        }
        var value: UInt64 = 0
        for character in digits {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else { return nil }
            value = value * radix + UInt64(digit)
            if value > UInt64(UInt32.max) { return nil }
        }
        return value
    }

    /// IPv4 ranges that are not the public internet (IANA's special-purpose registry): this
    /// network, private (RFC 1918), shared CGNAT, loopback, link-local, IETF protocol
    /// assignments, documentation, the 6to4 relay, benchmarking, multicast, reserved and broadcast.
    private static let nonPublicIPv4: [(UInt8, UInt8, UInt8, UInt8, prefix: Int)] = [
        (0, 0, 0, 0, 8), (10, 0, 0, 0, 8), (100, 64, 0, 0, 10), (127, 0, 0, 0, 8), (169, 254, 0, 0, 16), (172, 16, 0, 0, 12),
        (192, 0, 0, 0, 24), (192, 0, 2, 0, 24), (192, 88, 99, 0, 24), (192, 168, 0, 0, 16), (198, 18, 0, 0, 15),
        (198, 51, 100, 0, 24), (203, 0, 113, 0, 24), (224, 0, 0, 0, 4), (240, 0, 0, 0, 4),
    ]

    /// Whether a request may go to `address` without the allowance. IPv6: only global unicast
    /// (`2000::/3`) less documentation and IETF assignments, and forms carrying an IPv4 address
    /// are judged by that address; so loopback `::1`, `::`, ULA `fc00::/7`, link-local
    /// `fe80::/10` and multicast `ff00::/8` are refused.
    package static func isPublic(_ address: IPAddress) -> Bool {
        if let embedded = address.embeddedIPv4 { return isPublic(embedded) }
        switch address {
        case .v4(let value):
            return !nonPublicIPv4.contains { range in
                let network = IPAddress(range.0, range.1, range.2, range.3)
                guard case .v4(let base) = network else { return false }
                let mask = UInt32.max << (32 - range.prefix)
                return value & mask == base
            }
        case .v6(let b):
            guard b.count == 16, b[0] & 0xE0 == 0x20 else { return false }
            let documentation = b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8
            let ietf = b[0] == 0x20 && b[1] == 0x01 && b[2] & 0xFE == 0  // 2001::/23
            let documentation2024 = b[0] == 0x3F && b[1] == 0xFF && b[2] & 0xF0 == 0  // 3fff::/20
            return !(documentation || ietf || documentation2024)
        }
    }

    /// `localhost` and `*.localhost` always name this machine (RFC 6761), whatever DNS says.
    package static func isLocalName(_ name: String) -> Bool {
        var lower = name.lowercased()
        if lower.hasSuffix(".") { lower.removeLast() }
        return lower == "localhost" || lower.hasSuffix(".localhost")
    }

    /// The check when an endpoint is saved: a URL the contract admits whose host is not public
    /// (`allowPrivate` off) is refused. Host names are judged at each send, when they resolve.
    package static func checkSaved(url: String, allowPrivate: Bool) throws(WebhookError) {
        guard let host = host(ofURL: url), let kind = classify(host) else { throw .invalidURL }
        guard !allowPrivate else { return }
        switch kind {
        case .address(let address): guard isPublic(address) else { throw .addressNotPublic }
        case .name(let name): guard !isLocalName(name) else { throw .addressNotPublic }
        }
    }

    /// The check at each send: every address `host` resolves to (through `lookUp`, once), all
    /// public unless `allowPrivate`; the request must go to one of these.
    package static func addresses(
        of host: String, allowPrivate: Bool, lookUp: @Sendable (String) async throws -> [IPAddress]
    ) async throws -> [IPAddress] {
        guard let kind = classify(host) else { throw Refusal.invalidHost }
        let found: [IPAddress]
        switch kind {
        case .address(let address): found = [address]
        case .name(let name):
            if !allowPrivate, isLocalName(name) { throw Refusal.notPublic }
            found = try await lookUp(name)
        }
        guard !found.isEmpty else { throw Refusal.doesNotResolve }
        if !allowPrivate, !found.allSatisfy(isPublic) { throw Refusal.notPublic }
        return found
    }
}

/// Resolves host names with the system's `getaddrinfo` on threads of its own, so a slow DNS
/// server holds neither an event loop nor the threads that hash passwords. A lookup abandoned
/// by its caller (the attempt's deadline passed) finishes on its thread unheeded.
package struct HostResolver: Sendable {
    package let pool: NIOThreadPool

    package func lookUp(_ host: String) async throws -> [IPAddress] {
        let outcome = FirstOutcome<[IPAddress]>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.deliver(to: continuation)
                Task {
                    do { outcome.settle(.success(try await pool.runIfActive { try Self.systemLookUp(host) })) } catch {
                        outcome.settle(.failure(error))
                    }
                }
            }
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }

    /// Every address `host` has, in the order `getaddrinfo` prefers, each once.
    package static func systemLookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            throw WebhookAddress.Refusal.doesNotResolve
        }
        defer { freeaddrinfo(first) }
        var found: [IPAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            guard let socket = info.pointee.ai_addr else { continue }
            let address: IPAddress
            switch info.pointee.ai_family {
            case AF_INET:
                address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
            case AF_INET6:
                address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var bytes = pointer.pointee.sin6_addr
                    return .v6(withUnsafeBytes(of: &bytes) { Array($0) })
                }
            default: continue
            }
            if !found.contains(address) { found.append(address) }
        }
        return found
    }
}
