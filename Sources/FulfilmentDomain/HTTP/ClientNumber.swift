import Foundation

/// The one reader of a whole number a client typed into a form or put in a query string (issue
/// 41). A page's number is text until this has bounded it by what the field means (a stop is 1 to
/// the stops a list can have, a quantity 0 to 99, a pickup slot a time the calendar can hold), so
/// no code does arithmetic with a client's number before it is known to fit: `stop - 1` on
/// `Int.min`, or `Int64(seconds)` of a date past the year 9999, stopped the whole process once.
///
/// Anything else (not digits, a sign where none belongs, a fraction, `1e308`, `NaN`, 100 kB of
/// digits) is `invalid_field` with a sentence for the page, never a trap and never a guess.
package enum ClientNumber {
    /// The longest text read as a number: more digits than any bound here can need, so a huge
    /// value is refused by its length before anything parses it.
    package static let maximumDigits = 19

    /// `text` as a whole number within `range`: nil when absent or blank (the caller's default
    /// applies), `invalid_field` naming `field` when it is anything but such a number.
    package static func read(_ text: String?, field: String, label: String? = nil, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let refusal = APIError.invalidField(
            field,
            "\(label ?? field.prefix(1).uppercased() + field.dropFirst()) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= maximumDigits, digits.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int(text), range.contains(value)
        else { throw refusal }
        return value
    }
}
