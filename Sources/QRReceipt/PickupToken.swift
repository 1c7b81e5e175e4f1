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
public struct PickupToken: Sendable, Hashable {
    /// The format version this code writes and reads.
    public static let formatVersion: UInt8 = 1
    /// Starts every token's text form; identifies the text scheme, not the layout version.
    public static let textPrefix = "FC1:"
    /// Bytes before the signature in format version 1.
    public static let signedLength = 27
    /// Ed25519 signature size.
    public static let signatureLength = 64
    /// Total binary length in format version 1.
    public static let length = signedLength + signatureLength

    static let domainTag: [UInt8] = Array("fulfilment pickup token".utf8) + [0]

    /// What the token asserts. Nothing personal: an order, a store, a deadline.
    public struct Claims: Sendable, Hashable {
        /// The order to hand over.
        public var orderID: UUID
        /// The compact number of the store where it may be collected (not the store's UUID).
        public var storeNumber: UInt32
        /// Expiry as Unix seconds; the token is valid while `now < expiry`.
        public var expiry: UInt32

        /// Creates claims with an exact expiry in Unix seconds.
        public init(orderID: UUID, storeNumber: UInt32, expiry: UInt32) {
            self.orderID = orderID
            self.storeNumber = storeNumber
            self.expiry = expiry
        }

        /// Creates claims expiring at `expiresAt`, rounded down to whole seconds.
        ///
        /// Dates outside what a UInt32 of seconds can hold are clamped, which only ever makes
        /// the token expire earlier: before 1970 gives an already expired token, after
        /// 2106-02-07 gives that date.
        public init(orderID: UUID, storeNumber: UInt32, expiresAt: Date) {
            let seconds = expiresAt.timeIntervalSince1970.rounded(.down)
            let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), Double(UInt32.max))
            let expiry = UInt32(clamped)
            self.init(orderID: orderID, storeNumber: storeNumber, expiry: expiry)
        }

        /// The expiry as a date.
        public var expiresAt: Date { Date(timeIntervalSince1970: TimeInterval(expiry)) }

        /// Whether the token has expired at `now` (true from the expiry second on).
        public func isExpired(at now: Date) -> Bool {
            now.timeIntervalSince1970 >= TimeInterval(expiry)
        }
    }

    /// The layout version (always ``formatVersion`` for tokens this code creates or accepts).
    public let version: UInt8
    /// Which key signed it.
    public let keyID: PickupKeyID
    /// What it asserts.
    public let claims: Claims
    /// The 64-byte Ed25519 signature.
    public let signature: [UInt8]

    init(keyID: PickupKeyID, claims: Claims, signature: [UInt8]) {
        precondition(signature.count == Self.signatureLength)
        self.version = Self.formatVersion
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
        guard version == Self.formatVersion else { throw .unsupportedVersion(version) }
        guard bytes.count == Self.length else { throw .malformed(.wrongLength(bytes.count)) }
        self.version = version
        self.keyID = PickupKeyID(UInt16(bytes[1]) << 8 | UInt16(bytes[2]))
        let orderID = UUID(
            uuid: (
                bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15], bytes[16], bytes[17], bytes[18]
            ))
        self.claims = Claims(
            orderID: orderID,
            storeNumber: Self.readUInt32(bytes, at: 19),
            expiry: Self.readUInt32(bytes, at: 23)
        )
        self.signature = Array(bytes[Self.signedLength...])
    }

    /// Parses the text form without checking the signature: use ``PickupTokenVerifier`` to trust it.
    ///
    /// - Throws: ``PickupTokenError/malformed(_:)`` or ``PickupTokenError/unsupportedVersion(_:)``.
    public init(text: some StringProtocol) throws(PickupTokenError) {
        try self.init(bytes: Self.decodeText(text))
    }

    /// The complete binary form (91 bytes).
    public var bytes: [UInt8] {
        Self.signedBytes(keyID: keyID, claims: claims) + signature
    }

    /// The text form to put in the QR code: ``textPrefix`` + Base45 of ``bytes``.
    public var text: String {
        Self.textPrefix + Base45.encode(bytes)
    }

    /// Bytes 0..<27: version, key id and claims.
    static func signedBytes(keyID: PickupKeyID, claims: Claims) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(length)
        out.append(formatVersion)
        out.append(UInt8(keyID.rawValue >> 8))
        out.append(UInt8(keyID.rawValue & 0xFF))
        withUnsafeBytes(of: claims.orderID.uuid) { out.append(contentsOf: $0) }
        appendUInt32(claims.storeNumber, to: &out)
        appendUInt32(claims.expiry, to: &out)
        return out
    }

    /// What the signature is computed over: the domain tag and the signed bytes.
    static func signingMessage(signedBytes: some Collection<UInt8>) -> [UInt8] {
        domainTag + signedBytes
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

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
