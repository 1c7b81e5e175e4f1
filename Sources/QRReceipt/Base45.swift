/// Base45 (RFC 9285): binary data as text in the QR alphanumeric character set.
///
/// Every 2 bytes become 3 characters and a final odd byte becomes 2, so a QR code can
/// carry binary data in alphanumeric mode (5.5 bits per character) instead of byte mode.
/// The alphabet is `0-9 A-Z space $ % * + - . / :` — upper case only; lower case is invalid.
public enum Base45 {
    /// The 45 characters, in value order (RFC 9285 section 4.2).
    public static let alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"

    /// Why a string is not valid Base45.
    public enum DecodingError: Error, Sendable, Hashable {
        /// A character outside the alphabet (for example a lower-case letter), at this UTF-8 offset.
        case invalidCharacter(offset: Int)
        /// The length leaves a single trailing character (length mod 3 == 1).
        case invalidLength
        /// A group of characters at this UTF-8 offset encodes a value that does not fit
        /// its bytes (over 65535 for three characters, over 255 for two).
        case valueOutOfRange(offset: Int)
    }

    private static let encodeTable: [UInt8] = Array(alphabet.utf8)

    /// ASCII byte to value, 255 for bytes outside the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, byte) in encodeTable.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()

    /// Encodes bytes as Base45 text.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        let count = (input.count / 2) * 3 + (input.count % 2) * 2
        return String(unsafeUninitializedCapacity: count) { out in
            var o = 0
            var i = 0
            while i + 1 < input.count {
                var n = Int(input[i]) << 8 | Int(input[i + 1])
                out[o] = encodeTable[n % 45]
                n /= 45
                out[o + 1] = encodeTable[n % 45]
                out[o + 2] = encodeTable[n / 45]
                o += 3
                i += 2
            }
            if i < input.count {
                let n = Int(input[i])
                out[o] = encodeTable[n % 45]
                out[o + 1] = encodeTable[n / 45]
                o += 2
            }
            return o
        }
    }

    /// Decodes Base45 text into bytes.
    ///
    /// Strict: no whitespace trimming, no case folding, and every group must encode a
    /// value in range, so each byte string has exactly one valid text form.
    /// - Throws: ``DecodingError`` describing the first problem found.
    public static func decode(_ text: some StringProtocol) throws(DecodingError) -> [UInt8] {
        try decode(utf8: text.utf8)
    }

    /// Decodes Base45 given as UTF-8 (ASCII) bytes; same rules as ``decode(_:)``.
    public static func decode(utf8 text: some Collection<UInt8>) throws(DecodingError) -> [UInt8] {
        let utf8 = Array(text)
        if utf8.count % 3 == 1 {
            // Report a bad character first if there is one: it is the more useful error.
            if let offset = utf8.firstIndex(where: { decodeTable[Int($0)] == 255 }) {
                throw .invalidCharacter(offset: offset)
            }
            throw .invalidLength
        }
        var output = [UInt8]()
        output.reserveCapacity(utf8.count / 3 * 2 + 1)
        var i = 0
        while i < utf8.count {
            let groupLength = min(3, utf8.count - i)
            var n = 0
            var weight = 1
            for k in 0..<groupLength {
                let value = decodeTable[Int(utf8[i + k])]
                if value == 255 { throw .invalidCharacter(offset: i + k) }
                n += Int(value) * weight
                weight *= 45
            }
            if groupLength == 3 {
                if n > 0xFFFF { throw .valueOutOfRange(offset: i) }
                output.append(UInt8(n >> 8))
                output.append(UInt8(n & 0xFF))
            } else {
                if n > 0xFF { throw .valueOutOfRange(offset: i) }
                output.append(UInt8(n))
            }
            i += groupLength
        }
        return output
    }
}
