import Foundation

/// A place to put a product, checked: an aisle code, and optionally bay (1...999) and shelf.
package struct LocationDraft: Sendable, Equatable {
    package var aisleCode: String
    package var bay: Int?
    package var shelf: String?

    /// The bays an aisle may have.
    package static let bays = 1...999

    package init(aisleCode: String, bay: Int?, shelf: String?) throws(CatalogueError) {
        let code = aisleCode.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { throw .invalidField("aisleCode", "An aisle code is required.") }
        if let bay, !Self.bays.contains(bay) { throw .invalidField("bay", "A bay is a number from 1 to 999.") }
        let shelf = shelf?.trimmingCharacters(in: .whitespaces)
        if let shelf, shelf.count > 10 { throw .invalidField("shelf", "A shelf is at most 10 characters.") }
        self.aisleCode = code
        self.bay = bay
        self.shelf = shelf?.isEmpty == true ? nil : shelf
    }
}
