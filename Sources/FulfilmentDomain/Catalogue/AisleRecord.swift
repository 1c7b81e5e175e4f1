/// One of a store's aisles.
public struct AisleRecord: Sendable, Equatable {
    public var id: AisleID
    public var code: String
    public var name: String
    public var walkOrder: Int
    public var zone: String
}
