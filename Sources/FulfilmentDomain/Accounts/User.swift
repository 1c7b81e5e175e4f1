import Foundation

/// A user as the API shows it: never with the password hash.
public struct User: Sendable, Equatable {
    public var id: UserID
    public var email: String
    public var name: String
    public var role: Role
    public var storeID: StoreID?
    public var createdAt: Date
    /// When a manager disabled the account; nil while it may sign in.
    public var disabledAt: Date? = nil
}
