import Foundation

/// A block of addresses, `10.0.0.0/8` or `fd00::/8`; a bare address is a block of one.
package struct CIDR: Hashable, Sendable {
    package let network: IPAddress
    package let prefix: Int

    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parsing: parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        let bits = network.bytes.count * 8
        // A mapped IPv4 block (`::ffff:10.0.0.0/104`) is read as the IPv4 block it names.
        let written = parts.count == 2 ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        let prefix: Int? = parts.count == 1 ? bits : written.map { $0 - (text.contains(":") && bits == 32 ? 96 : 0) }
        guard let prefix, (0...bits).contains(prefix) else { return nil }
        (self.network, self.prefix) = (network, prefix)
    }

    package func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var left = prefix
        for (a, b) in zip(address.bytes, network.bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if a & mask != b & mask { return false }
            left -= 8
        }
        return true
    }
}

/// The proxies whose `X-Forwarded-For` the service believes (`FULFILMENT_TRUSTED_PROXIES`: CIDRs
/// separated by commas or spaces, none by default).
///
/// Behind a TLS proxy every connection comes from the proxy, so counting sign-in failures by the
/// TCP peer would lock an account for everyone at once. Only a trusted peer's header is read,
/// from the right (the end a trusted proxy appended), skipping trusted hops: the first address
/// that is not a trusted proxy is the client, whatever anyone wrote further left. A peer that is
/// not trusted is the client itself, whatever header it sent.
public struct TrustedProxies: Sendable, Equatable {
    package let blocks: [CIDR]
    /// Entries of the setting that are no CIDR; the service refuses to start with any.
    public let invalid: [String]

    public static let none = TrustedProxies(parsing: "")

    public init(parsing text: String) {
        var blocks: [CIDR] = []
        var invalid: [String] = []
        for entry in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
            if let block = CIDR(entry) { blocks.append(block) } else { invalid.append(String(entry.prefix(60))) }
        }
        (self.blocks, self.invalid) = (blocks, invalid)
    }

    package func trusts(_ address: IPAddress) -> Bool { blocks.contains { $0.contains(address) } }

    /// The client's address: the peer's, or, when the peer is a trusted proxy, the rightmost
    /// address of `forwardedFor` (every `X-Forwarded-For` line, in order) that is not trusted.
    /// An unreadable hop ends the walk at the trusted hop that reported it.
    package func client(peer: String, forwardedFor: [String]) -> String {
        guard !blocks.isEmpty, var client = IPAddress(parsing: peer), trusts(client) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard let address = Self.address(hop) else { break }
            client = address
            if !trusts(address) { break }
        }
        return client.description
    }

    /// A hop as proxies write it: an address, perhaps with a port (`a.b.c.d:p`, `[v6]:p`).
    package static func address(_ hop: Substring) -> IPAddress? {
        let text = hop.trimmingCharacters(in: .whitespaces)
        if let address = IPAddress(parsing: text) { return address }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return IPAddress(parsing: text[text.index(after: text.startIndex)..<close]) }
        if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 { return IPAddress(parsing: text[..<colon]) }
        return nil
    }
}
