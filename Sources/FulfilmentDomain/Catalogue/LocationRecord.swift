/// Where a product sits in one store.
package struct LocationRecord: Sendable, Equatable {
    package var aisleID: AisleID
    package var aisleCode: String
    package var aisleName: String
    package var zone: String
    package var bay: Int?
    package var shelf: String?

    /// "Aisle 6 (Dairy), bay 3, shelf B" — what the locate page shows.
    package var sentence: String {
        var parts = ["Aisle \(aisleCode) (\(aisleName))"]
        if let bay { parts.append("bay \(bay)") }
        if let shelf { parts.append("shelf \(shelf)") }
        return parts.joined(separator: ", ")
    }

    package static let notLocatedSentence = "Not yet placed in an aisle at this store"
}
