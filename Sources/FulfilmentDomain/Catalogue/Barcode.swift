import Foundation

/// A retail barcode: EAN-13, UPC-A (12 digits) or EAN-8, with its check digit verified.
///
/// Only digits are accepted (surrounding spaces are trimmed); the last digit must be the
/// GS1 mod-10 check digit of the others (weights 3 and 1 alternating from the right).
public struct Barcode: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case ean13 = "EAN-13"
        case upcA = "UPC-A"
        case ean8 = "EAN-8"
    }

    /// The digits, as stored and printed.
    public let digits: String
    public var kind: Kind {
        switch digits.count {
        case 13: .ean13
        case 12: .upcA
        default: .ean8
        }
    }
    public var description: String { digits }

    /// Throws `CatalogueError.invalidBarcode` for anything but 8, 12 or 13 digits with the right check digit.
    public init(_ text: String) throws(CatalogueError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let values = trimmed.unicodeScalars.compactMap { $0.isASCIIDigit ? Int($0.value) - 48 : nil }
        guard values.count == trimmed.unicodeScalars.count, [8, 12, 13].contains(values.count) else {
            throw .invalidBarcode(text)
        }
        guard Self.checkDigit(of: values.dropLast()) == values.last else { throw .invalidBarcode(text) }
        digits = trimmed
    }

    /// The GS1 check digit of `payload` (every digit but the last).
    package static func checkDigit(of payload: some BidirectionalCollection<Int>) -> Int {
        var sum = 0
        for (index, digit) in payload.reversed().enumerated() {
            sum += digit * (index.isMultiple(of: 2) ? 3 : 1)
        }
        return (10 - sum % 10) % 10
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
