import Foundation

/// A change to on hand as a delta (`+24 received`, `-2 damaged`), so two people adjusting at
/// once both count, and a collection in between is never undone.
package struct StockAdjustment: Sendable, Equatable {
    /// Bounds on one adjustment and on what on hand may become: far beyond any shelf, well
    /// inside a 32-bit column, so no sum can overflow.
    package static let limit = 1_000_000_000

    package var delta: Int
    package var reason: StockReason
    package var note: String?

    package init(delta: Int, reason: StockReason, note: String?) throws(CatalogueError) {
        // 0 is allowed: it records a check that changed nothing (a count that matched).
        guard (-Self.limit...Self.limit).contains(delta) else {
            throw .invalidField("delta", "The change must be a whole number from -\(Self.limit) to \(Self.limit).")
        }
        guard reason != .import else { throw .invalidField("reason", "'import' is kept for the CSV import.") }
        let note = note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note, note.count > 500 { throw .invalidField("note", "A note is at most 500 characters.") }
        self.delta = delta
        self.reason = reason
        self.note = note?.isEmpty == true ? nil : note
    }
}
