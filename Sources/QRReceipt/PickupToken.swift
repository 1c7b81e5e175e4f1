import Foundation

/// A signed pickup token: what the customer's QR receipt carries.
///
/// Binary layout, format version 1 — 91 bytes, all integers big-endian:
///
/// | offset | size | field                                                          |
/// |-------:|-----:|----------------------------------------------------------------|
/// |      0 |    1 | format version, `0x01`                                         |
/// |      1 |    2 | signing key id (UInt16, assigned by the keyring: 1, 2, 3, ...) |
/// |      3 |   16 | order id (UUID, RFC 4122 byte order)                           |
/// |     19 |    4 | store number (UInt32, the store's `token_number`)              |
/// |     23 |    4 | expiry (UInt32, Unix seconds, UTC; valid while `now < expiry`) |
/// |     27 |   64 | Ed25519 signature                                              |
///
/// The signature covers the ASCII domain tag `"fulfilment pickup token"` followed by a
/// zero byte and bytes 0..<27 (everything before the signature), so a key reused
/// elsewhere cannot be tricked into signing a token.
///
/// Text form: `"FC1:"` + Base45(all 91 bytes) = 4 + 137 = 141 characters, all in the QR
/// alphanumeric set. That is a version 6 QR code at ECC level M (capacity 154) and
/// version 8 at level Q (capacity 157). Nothing personal is in the token.
///
/// Format version 2 is a **collector pass** (issue 48): someone the customer named collects
/// for them with a token of their own, made and checked with the same keys, so an offline
/// scanner that verifies receipts verifies passes too. 107 bytes: version `0x02`, then the same
/// key id, order, store and expiry (the pass's own), then at offset 27 the collector pass's id
/// (16 bytes, UUID), then the signature over the tag `"fulfilment collector pass"`, a zero byte
/// and bytes 0..<43. A different tag, so a receipt's signature can never be passed off as a
/// pass's, nor the reverse. Text form 4 + 161 = 165 characters (QR version 7 at level M).
public struct PickupToken: Sendable, Hashable {
    /// The format version of a customer's own receipt.
    public static let formatVersion: UInt8 = 1
    /// The format version of a collector pass.
    public static let collectorPassVersion: UInt8 = 2
    /// Starts every token's text form; identifies the text scheme, not the layout version.
    public static let textPrefix = "FC1:"
    /// Bytes before the signature in format version 1.
    public static let signedLength = 27
    /// Ed25519 signature size.
    public static let signatureLength = 64
    /// Total binary length in format version 1.
    public static let length = signedLength + signatureLength
    /// Bytes before the signature in a collector pass (version 2): the collector's id follows.
    public static let collectorPassSignedLength = signedLength + 16
    /// Total binary length of a collector pass.
    public static let collectorPassLength = collectorPassSignedLength + signatureLength

    static let domainTag: [UInt8] = Array("fulfilment pickup token".utf8) + [0]
    static let collectorPassDomainTag: [UInt8] = Array("fulfilment collector pass".utf8) + [0]

    /// What the token asserts. Nothing personal: an order, a store, a deadline.
    public struct Claims: Sendable, Hashable {
        /// The order to hand over.
        public var orderID: UUID
        /// The compact number of the store where it may be collected (not the store's UUID).
        public var storeNumber: UInt32
        /// Expiry as Unix seconds; the token is valid while `now < expiry`.
        public var expiry: UInt32
        /// The collector pass this token is (format version 2); nil for the customer's own receipt.
        public var collectorPassID: UUID?

        /// Creates claims with an exact expiry in Unix seconds.
        public init(orderID: UUID, storeNumber: UInt32, expiry: UInt32, collectorPassID: UUID? = nil) {
            self.orderID = orderID
            self.storeNumber = storeNumber
            self.expiry = expiry
            self.collectorPassID = collectorPassID
        }

        /// Creates claims expiring at `expiresAt`, rounded down to whole seconds.
        ///
        /// Dates outside what a UInt32 of seconds can hold are clamped, which only ever makes
        /// the token expire earlier: before 1970 gives an already expired token, after
        /// 2106-02-07 gives that date.
        public init(orderID: UUID, storeNumber: UInt32, expiresAt: Date, collectorPassID: UUID? = nil) {
            let seconds = expiresAt.timeIntervalSince1970.rounded(.down)
            let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), Double(UInt32.max))
            let expiry = UInt32(clamped)
            self.init(orderID: orderID, storeNumber: storeNumber, expiry: expiry, collectorPassID: collectorPassID)
        }

        /// The expiry as a date.
        public var expiresAt: Date { Date(timeIntervalSince1970: TimeInterval(expiry)) }

        /// Whether the token has expired at `now` (true from the expiry second on).
        public func isExpired(at now: Date) -> Bool {
            now.timeIntervalSince1970 >= TimeInterval(expiry)
        }
    }

    /// The layout version: ``formatVersion`` for a receipt, ``collectorPassVersion`` for a pass.
    public let version: UInt8
    /// Which key signed it.
    public let keyID: PickupKeyID
    /// What it asserts.
    public let claims: Claims
    /// The 64-byte Ed25519 signature.
    public let signature: [UInt8]

    init(keyID: PickupKeyID, claims: Claims, signature: [UInt8]) {
        precondition(signature.count == Self.signatureLength)
        self.version = claims.collectorPassID == nil ? Self.formatVersion : Self.collectorPassVersion
        self.keyID = keyID
        self.claims = claims
        self.signature = signature
    }

    /// Parses the binary form without checking the signature: use ``PickupTokenVerifier`` to trust it.
    ///
    /// - Throws: ``PickupTokenError/malformed(_:)`` or ``PickupTokenError/unsupportedVersion(_:)``.
    public init(bytes: some Collection<UInt8>) throws(PickupTokenError) {
        let bytes = Array(bytes)
        guard let version = bytes.first else { throw .malformed(.empty) }
        guard version == Self.formatVersion || version == Self.collectorPassVersion else { throw .unsupportedVersion(version) }
        let signedLength = Self.signedLength(version: version)
        guard bytes.count == signedLength + Self.signatureLength else { throw .malformed(.wrongLength(bytes.count)) }
        self.version = version
        self.keyID = PickupKeyID(UInt16(bytes[1]) << 8 | UInt16(bytes[2]))
        self.claims = Claims(
            orderID: Self.readUUID(bytes, at: 3),
            storeNumber: Self.readUInt32(bytes, at: 19),
            expiry: Self.readUInt32(bytes, at: 23),
            collectorPassID: version == Self.collectorPassVersion ? Self.readUUID(bytes, at: Self.signedLength) : nil
        )
        self.signature = Array(bytes[signedLength...])
    }

    /// Whether this is a collector pass rather than the customer's own receipt.
    public var isCollectorPass: Bool { claims.collectorPassID != nil }

    /// How many bytes the signature covers in a token of `version`.
    static func signedLength(version: UInt8) -> Int {
        version == collectorPassVersion ? collectorPassSignedLength : signedLength
    }

    /// Parses the text form without checking the signature: use ``PickupTokenVerifier`` to trust it.
    ///
    /// - Throws: ``PickupTokenError/malformed(_:)`` or ``PickupTokenError/unsupportedVersion(_:)``.
    public init(text: some StringProtocol) throws(PickupTokenError) {
        try self.init(bytes: Self.decodeText(text))
    }

    /// The complete binary form (91 bytes; a collector pass 107).
    public var bytes: [UInt8] {
        Self.signedBytes(keyID: keyID, claims: claims) + signature
    }

    /// The text form to put in the QR code: ``textPrefix`` + Base45 of ``bytes``.
    public var text: String {
        Self.textPrefix + Base45.encode(bytes)
    }

    /// Bytes 0..<27 (a pass 0..<43): version, key id and claims.
    static func signedBytes(keyID: PickupKeyID, claims: Claims) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(collectorPassLength)
        out.append(claims.collectorPassID == nil ? formatVersion : collectorPassVersion)
        out.append(UInt8(keyID.rawValue >> 8))
        out.append(UInt8(keyID.rawValue & 0xFF))
        withUnsafeBytes(of: claims.orderID.uuid) { out.append(contentsOf: $0) }
        appendUInt32(claims.storeNumber, to: &out)
        appendUInt32(claims.expiry, to: &out)
        if let pass = claims.collectorPassID {
            withUnsafeBytes(of: pass.uuid) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// What the signature is computed over: the version's domain tag and the signed bytes.
    static func signingMessage(signedBytes: some Collection<UInt8>) -> [UInt8] {
        (signedBytes.first == collectorPassVersion ? collectorPassDomainTag : domainTag) + signedBytes
    }

    static func decodeText(_ text: some StringProtocol) throws(PickupTokenError) -> [UInt8] {
        guard text.utf8.starts(with: textPrefix.utf8) else { throw .malformed(.missingPrefix) }
        do {
            return try Base45.decode(utf8: text.utf8.dropFirst(textPrefix.utf8.count))
        } catch {
            throw .malformed(.invalidBase45(error))
        }
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(value >> 24))
        out.append(UInt8((value >> 16) & 0xFF))
        out.append(UInt8((value >> 8) & 0xFF))
        out.append(UInt8(value & 0xFF))
    }

    private static func readUUID(_ bytes: [UInt8], at o: Int) -> UUID {
        UUID(
            uuid: (
                bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3], bytes[o + 4], bytes[o + 5], bytes[o + 6], bytes[o + 7],
                bytes[o + 8], bytes[o + 9], bytes[o + 10], bytes[o + 11], bytes[o + 12], bytes[o + 13], bytes[o + 14], bytes[o + 15]
            ))
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
