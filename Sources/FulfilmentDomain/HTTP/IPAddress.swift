import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as its bytes: where a webhook may be sent (`WebhookAddress`), which proxy a
/// connection came through (`TrustedProxies`), whether a listener is loopback (`MetricsEndpoint`).
package enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    /// 16 bytes, network order.
    case v6([UInt8])

    package init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        self = .v4(UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d))
    }

    /// The usual text (`inet_ntop`): what the HTTP client connects to.
    package var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String(value >> $0 & 0xFF) }.joined(separator: ".")
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "::" }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The IPv4 address an IPv6 one carries, in the forms that reach it: IPv4-mapped
    /// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, which includes `::` and `::1`), NAT64
    /// (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/16`).
    package var embeddedIPv4: IPAddress? {
        guard case .v6(let b) = self, b.count == 16 else { return nil }
        func v4(_ at: Int) -> IPAddress { IPAddress(b[at], b[at + 1], b[at + 2], b[at + 3]) }
        if b[0..<10].allSatisfy({ $0 == 0 }), (b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0) { return v4(12) }
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return v4(12) }
        if b[0] == 0x20 && b[1] == 0x02 { return v4(2) }
        return nil
    }
}

extension IPAddress {
    /// An address as the kernel reads it (`inet_pton`: strict dotted-quad IPv4, or IPv6), the
    /// form proxies write and operators configure. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`)
    /// is the IPv4 address it carries, so one client has one address whichever stack it came by.
    package init?(parsing text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard !text.contains("%"), inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            self.init(bytes[12], bytes[13], bytes[14], bytes[15])
        } else {
            self = .v6(bytes)
        }
    }

    /// Its bytes in network order: 4 for IPv4, 16 for IPv6.
    package var bytes: [UInt8] {
        switch self {
        case .v4(let value): [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        case .v6(let bytes): bytes
        }
    }
}

extension IPAddress {
    /// `127.0.0.0/8`, `::1` and `localhost` (any case, with or without its final dot): a host
    /// only this machine reaches. The metrics endpoint opens to it without a token; SMTP sends to
    /// it without TLS.
    package static func isLoopback(host: String) -> Bool {
        if ["localhost", "localhost."].contains(host.lowercased()) { return true }
        guard let address = IPAddress(parsing: host) else { return false }
        return address.bytes.count == 4 ? address.bytes[0] == 127 : address == IPAddress(parsing: "::1")
    }
}
