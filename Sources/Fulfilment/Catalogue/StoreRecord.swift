/// A store as the catalogue sees it.
public struct StoreRecord: Sendable, Equatable {
    public var id: StoreID
    public var code: String
    public var name: String
    public var address: String
    public var currency: String
}
