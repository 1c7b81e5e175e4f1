/// Where a product sits in one store.
struct LocationRecord: Sendable, Equatable {
    var aisleID: AisleID
    var aisleCode: String
    var aisleName: String
    var zone: String
    var bay: Int?
    var shelf: String?

    /// "Aisle 6 (Dairy), bay 3, shelf B" — what the locate page shows.
    var sentence: String {
        var parts = ["Aisle \(aisleCode) (\(aisleName))"]
        if let bay { parts.append("bay \(bay)") }
        if let shelf { parts.append("shelf \(shelf)") }
        return parts.joined(separator: ", ")
    }

    static let notLocatedSentence = "Not yet placed in an aisle at this store"
}
