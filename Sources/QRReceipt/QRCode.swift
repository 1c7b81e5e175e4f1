import CQREncode
import Foundation

/// A QR code symbol (the grid of modules), made by libqrencode.
///
/// Render it with ``png(scale:)`` or ``svg(moduleSize:)``. Immutable and `Sendable`.
public struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be damaged and still read. Higher levels need bigger symbols.
    public enum ErrorCorrection: String, Sendable, Hashable, CaseIterable {
        /// About 7% recoverable.
        case low = "L"
        /// About 15% recoverable; the default, a good fit for screens.
        case medium = "M"
        /// About 25% recoverable; for printed receipts that get creased.
        case quartile = "Q"
        /// About 30% recoverable.
        case high = "H"

        var qrencodeLevel: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Why encoding failed.
    public enum EncodingError: Error, Sendable, Hashable {
        /// The text does not fit in a version 40 symbol at this level.
        case tooLong
        /// Empty text, or text containing a NUL character (libqrencode takes C strings).
        case invalidInput
        /// libqrencode failed for another reason (errno value).
        case library(errno: Int32)
    }

    /// Symbol version 1...40; each step adds 4 modules per side.
    public let version: Int
    /// The error correction level used.
    public let level: ErrorCorrection
    /// Modules per side (`17 + 4 * version`), without quiet zone.
    public let size: Int
    /// `size * size` modules, row by row from the top left; `true` is dark.
    public let modules: [Bool]

    /// The module at column `x`, row `y` (both `0..<size`); `true` is dark.
    public subscript(x x: Int, y y: Int) -> Bool {
        modules[y * size + x]
    }

    /// Encodes `text` in the smallest version that fits at `level`.
    ///
    /// Text made only of the QR alphanumeric characters (`0-9 A-Z space $ % * + - . / :`,
    /// such as a pickup token) is encoded as one alphanumeric segment. Any other text is
    /// encoded case-sensitively with libqrencode's mode optimisation (UTF-8 bytes for
    /// non-alphanumeric parts), never upper-cased.
    /// - Throws: ``EncodingError``.
    public static func encode(_ text: String, level: ErrorCorrection = .medium) throws(EncodingError) -> QRCode {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, !utf8.contains(0) else { throw .invalidInput }

        let symbol: UnsafeMutablePointer<QRcode>?
        if utf8.allSatisfy(isAlphanumeric) {
            symbol = encodeAlphanumeric(utf8, level: level)
        } else {
            // casesensitive = 1: with 0 libqrencode upper-cases the text to fit alphanumeric mode.
            symbol = QRcode_encodeString(text, 0, level.qrencodeLevel, QR_MODE_8, 1)
        }
        guard let symbol else {
            let code = errno
            throw code == ERANGE ? .tooLong : .library(errno: code)
        }
        defer { QRcode_free(symbol) }

        let width = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        // Bit 0 of each byte is the module colour; the other bits are libqrencode's bookkeeping.
        let modules = data.map { $0 & 1 == 1 }
        return QRCode(version: Int(symbol.pointee.version), level: level, size: width, modules: modules)
    }

    /// Creates a symbol from its modules; used by ``encode(_:level:)``.
    init(version: Int, level: ErrorCorrection, size: Int, modules: [Bool]) {
        precondition(modules.count == size * size)
        self.version = version
        self.level = level
        self.size = size
        self.modules = modules
    }

    private static func encodeAlphanumeric(_ utf8: [UInt8], level: ErrorCorrection) -> UnsafeMutablePointer<QRcode>? {
        // Version 0 lets libqrencode pick the smallest version that fits.
        guard let input = QRinput_new2(0, level.qrencodeLevel) else { return nil }
        defer { QRinput_free(input) }
        let appended = utf8.withUnsafeBufferPointer {
            QRinput_append(input, QR_MODE_AN, Int32($0.count), $0.baseAddress)
        }
        guard appended == 0 else { return nil }
        return QRcode_encodeInput(input)
    }

    /// The QR alphanumeric character set.
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        case UInt8(ascii: " "), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"):
            true
        default: false
        }
    }
}
