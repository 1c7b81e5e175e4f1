/// Who someone is to the shop. Staff and managers belong to exactly one store; customers and
/// the chain's admins to none.
public enum Role: String, Sendable, Codable, CaseIterable {
    case customer
    case staff
    case manager
    /// The chain's admin: creates and edits stores and their aisles, and keeps the shared
    /// catalogue. Works in no store, so no store's staff or manager routes are theirs.
    case admin

    /// Staff and managers work in a store; a manager can do everything staff can.
    public var worksInStore: Bool { self == .staff || self == .manager }
}
