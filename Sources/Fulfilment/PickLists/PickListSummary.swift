import Foundation

/// An open pick list as the list of them shows it: when it was made and how many orders it holds.
struct PickListSummary: Sendable {
    var id: PickListID
    var createdAt: Date
    var orderCount: Int
}
