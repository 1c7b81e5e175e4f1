import Foundation

/// An open pick list as the list of them shows it: when it was made and how many orders it holds.
package struct PickListSummary: Sendable {
    package var id: PickListID
    package var createdAt: Date
    package var orderCount: Int
}
