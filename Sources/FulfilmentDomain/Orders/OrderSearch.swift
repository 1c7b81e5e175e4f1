import Foundation
import QRReceipt

/// What staff typed into "Find an order" (issue 46), read once: the number it may be, the
/// order a scanned receipt names, and the words to look for in the customer's name and email.
package struct OrderSearch: Sendable, Equatable {
    /// The text, trimmed: matched within the customer's name and email, ignoring case.
    package var words: String
    /// `1005` or `#1005`: also the order with that number.
    package var number: Int64?
    /// A receipt's code: also the order it names.
    package var receiptOrder: OrderID?

    /// The longest search: a receipt's code is about 140 characters.
    package static let maximumLength = 300

    package init(_ text: String) throws(OrderError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumLength).contains(trimmed.unicodeScalars.count), !trimmed.unicodeScalars.contains("\0") else {
            throw .invalidSearch
        }
        words = trimmed
        let digits = trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed)
        if (1...12).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            number = Int64(digits)
        }
        receiptOrder = (try? PickupToken(text: trimmed)).map { OrderID($0.claims.orderID) }
    }
}
