import Foundation

/// A typed UUID, so a user id can't be passed where a store id is expected.
public struct ID<Tag>: Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UUID
    public init(_ rawValue: UUID) { self.rawValue = rawValue }
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        rawValue = uuid
    }
    public var description: String { rawValue.uuidString.lowercased() }
}

public enum UserTag {}
public enum StoreTag {}
public enum SessionTag {}
public typealias UserID = ID<UserTag>
public typealias StoreID = ID<StoreTag>
public typealias SessionID = ID<SessionTag>
